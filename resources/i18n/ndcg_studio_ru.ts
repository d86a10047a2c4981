<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ru" sourcelanguage="en">
<context>
    <name>AdjudicationPanel</name>
    <message>
        <source>Adjudication</source>
        <translation>Решение арбитра</translation>
    </message>
    <message>
        <source>Select a disputed document.</source>
        <translation>Выберите спорный документ.</translation>
    </message>
    <message>
        <source>Final grade:</source>
        <translation>Итоговая оценка:</translation>
    </message>
    <message>
        <source>Set the final grade to %1 (%2) — key %1</source>
        <translation>Поставить итоговую оценку %1 (%2) — клавиша %1</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Очистить</translation>
    </message>
    <message>
        <source>Remove the final grade (the consensus applies again) — key Backspace</source>
        <translation>Убрать итоговую оценку (снова действует согласование) — клавиша Backspace</translation>
    </message>
    <message>
        <source>&lt;b&gt;Query %1 · document %2&lt;/b&gt;</source>
        <translation>&lt;b&gt;Запрос %1 · документ %2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Query %1&lt;/b&gt;: %2&lt;br&gt;&lt;b&gt;Document %3&lt;/b&gt;: %4</source>
        <translation>&lt;b&gt;Запрос %1&lt;/b&gt;: %2&lt;br&gt;&lt;b&gt;Документ %3&lt;/b&gt;: %4</translation>
    </message>
    <message numerus="yes">
        <source>History: %1 recorded change(s), newest first.</source>
        <translation>
            <numerusform>История: %1 записанное изменение, новые сверху.</numerusform>
            <numerusform>История: %1 записанных изменения, новые сверху.</numerusform>
            <numerusform>История: %1 записанных изменений, новые сверху.</numerusform>
        </translation>
    </message>
    <message>
        <source>History: no recorded change.</source>
        <translation>История: записанных изменений нет.</translation>
    </message>
    <message>
        <source>Choose who you are (Annotator ▸ Switch annotator…) to set final grades.</source>
        <translation>Укажите, кто вы (Асессор ▸ Сменить асессора…), чтобы ставить итоговые оценки.</translation>
    </message>
    <message>
        <source>Final grades are recorded as set by %1; they win over the consensus in scoring. Keys 0–4 set, Backspace clears.</source>
        <translation>Итоговые оценки записываются от имени %1; при расчёте они важнее согласования. Клавиши 0–4 ставят, Backspace очищает.</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>Сохранение…</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>Сохранено</translation>
    </message>
    <message>
        <source>Final grade cleared</source>
        <translation>Итоговая оценка убрана</translation>
    </message>
    <message>
        <source>Final grade → %1</source>
        <translation>Итоговая оценка → %1</translation>
    </message>
    <message>
        <source>Undoing the final grade</source>
        <translation>Отмена итоговой оценки</translation>
    </message>
</context>
<context>
    <name>Agreement</name>
    <message>
        <source>empty: no grades</source>
        <translation>пусто: нет оценок</translation>
    </message>
    <message>
        <source>no item has two or more grades</source>
        <translation>ни у одного элемента нет двух и более оценок</translation>
    </message>
    <message>
        <source>only one distinct grade: expected disagreement is 0</source>
        <translation>только одна различная оценка: ожидаемое расхождение равно 0</translation>
    </message>
    <message>
        <source>no resample had a defined alpha</source>
        <extracomment>draw kind counts (multinomial) when the items are at least this many times more than their kinds</extracomment>
        <translation>ни в одной повторной выборке α не определена</translation>
    </message>
    <message>
        <source>no shared items</source>
        <translation>нет общих элементов</translation>
    </message>
    <message>
        <source>chance agreement is 1: both annotators gave every shared item one and the same grade</source>
        <translation>случайное согласие равно 1: оба асессора поставили всем общим элементам одну и ту же оценку</translation>
    </message>
    <message>
        <source>every item has one grade; Fleiss&apos; kappa needs at least two per item</source>
        <translation>у каждого элемента одна оценка; для каппы Флейса нужно не меньше двух на элемент</translation>
    </message>
    <message>
        <source>only one distinct grade: chance agreement is 1</source>
        <translation>только одна различная оценка: случайное согласие равно 1</translation>
    </message>
    <message>
        <source>Cohen&apos;s kappa (unweighted)</source>
        <translation>Каппа Коэна (без весов)</translation>
    </message>
    <message>
        <source>Cohen&apos;s kappa, linear weights</source>
        <translation>Каппа Коэна, линейные веса</translation>
    </message>
    <message>
        <source>Cohen&apos;s kappa, quadratic weights</source>
        <translation>Каппа Коэна, квадратичные веса</translation>
    </message>
</context>
<context>
    <name>AgreementView</name>
    <message>
        <source>Ordinal (grades are ordered)</source>
        <translation>Порядковая (оценки упорядочены)</translation>
    </message>
    <message>
        <source>Interval (equal steps)</source>
        <translation>Интервальная (равные шаги)</translation>
    </message>
    <message>
        <source>Ratio (equal steps from a true 0)</source>
        <translation>Отношений (равные шаги от истинного нуля)</translation>
    </message>
    <message>
        <source>Nominal (categories)</source>
        <translation>Номинальная (категории)</translation>
    </message>
    <message>
        <source>Computing agreement…</source>
        <translation>Расчёт согласия…</translation>
    </message>
    <message>
        <source>Agreement failed</source>
        <translation>Ошибка расчёта согласия</translation>
    </message>
    <message>
        <source>Computing agreement</source>
        <translation>Расчёт согласия</translation>
    </message>
    <message>
        <source>α level:</source>
        <translation>Шкала α:</translation>
    </message>
    <message>
        <source>Pairwise:</source>
        <translation>Попарно:</translation>
    </message>
    <message>
        <source>Pairwise agreement</source>
        <translation>Попарное согласие</translation>
    </message>
    <message>
        <source>Cohen&apos;s κ of each pair of annotators, on the documents both graded</source>
        <translation>Каппа Коэна для каждой пары асессоров по документам, оценённым обоими</translation>
    </message>
    <message>
        <source>α without each annotator</source>
        <translation>α без каждого асессора</translation>
    </message>
    <message>
        <source>Δ &gt; 0: agreement rises without that annotator</source>
        <translation>Δ &gt; 0: без этого асессора согласие растёт</translation>
    </message>
    <message>
        <source>α per query</source>
        <translation>α по запросам</translation>
    </message>
    <message>
        <source>All annotators&apos; disputed documents, or the items where two judgment sources differ by two grades or more (the correction queue)</source>
        <translation>Спорные документы всех асессоров или элементы, где два источника оценок расходятся на две оценки и больше (очередь исправлений)</translation>
    </message>
    <message>
        <source>Disputed documents</source>
        <translation>Спорные документы</translation>
    </message>
    <message>
        <source>Agreement is shown to leads. As an annotator you see only your own grades, not the others&apos;, so there is nothing to compare them with here.</source>
        <translation>Согласие видят только руководители. Как асессор вы видите только свои оценки, а не чужие, поэтому здесь их не с чем сравнить.</translation>
    </message>
    <message>
        <source>No judgments yet: grade documents in Annotate or import qrels to see agreement.</source>
        <translation>Оценок пока нет: оцените документы в «Разметке» или импортируйте qrels, чтобы увидеть согласие.</translation>
    </message>
    <message>
        <source>All annotators</source>
        <translation>Все асессоры</translation>
    </message>
    <message>
        <source>Sources %1 vs %2</source>
        <translation>Источники %1 и %2</translation>
    </message>
    <message>
        <source>grades differ by %1 or more</source>
        <translation>оценки расходятся на %1 и больше</translation>
    </message>
    <message>
        <source>%1 and %2 differ by 2 grades or more</source>
        <translation>%1 и %2 расходятся на 2 оценки и больше</translation>
    </message>
    <message>
        <source>Disputed documents: %1 (%2), %3 adjudicated</source>
        <translation>Спорные документы: %1 (%2), решено арбитром: %3</translation>
    </message>
    <message>
        <source>ordinal</source>
        <extracomment>the α level&apos;s name inside the headline sentence</extracomment>
        <translation>порядковая</translation>
    </message>
    <message>
        <source>interval</source>
        <translation>интервальная</translation>
    </message>
    <message>
        <source>ratio</source>
        <translation>отношений</translation>
    </message>
    <message>
        <source>nominal</source>
        <translation>номинальная</translation>
    </message>
    <message>
        <source>undefined</source>
        <translation>не определено</translation>
    </message>
    <message>
        <source>α undefined for every annotator: %1.</source>
        <translation>α не определена ни для одного асессора: %1.</translation>
    </message>
    <message>
        <source>; </source>
        <translation>; </translation>
    </message>
    <message>
        <source>α undefined without %1: %2.</source>
        <translation>α без %1 не определена: %2.</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>&lt;b&gt;Krippendorff&apos;s α (%1)&lt;/b&gt;: undefined — %2. %3, %4.</source>
        <translation>&lt;b&gt;α Криппендорфа (%1)&lt;/b&gt;: не определена — %2. %3, %4.</translation>
    </message>
    <message>
        <source>95% interval %1 – %2 (%3 bootstrap resamples of the documents)</source>
        <translation>95% интервал %1 – %2 (%3 бутстреп-выборок документов)</translation>
    </message>
    <message>
        <source>no interval: %1</source>
        <translation>интервала нет: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Krippendorff&apos;s α (%1) = %2&lt;/b&gt; &amp;nbsp; %3 &amp;nbsp;·&amp;nbsp; %4 documents graded by two or more of %5 annotators, %6</source>
        <translation>&lt;b&gt;α Криппендорфа (%1) = %2&lt;/b&gt; &amp;nbsp; %3 &amp;nbsp;·&amp;nbsp; документов с оценками двух и более из %5 асессоров: %4, %6</translation>
    </message>
    <message>
        <source>items have between %1 and %2 grades; Fleiss&apos; kappa needs the same number for every item</source>
        <translation>у элементов от %1 до %2 оценок; для каппы Флейса нужно одинаковое число у каждого элемента</translation>
    </message>
    <message>
        <source>Fleiss&apos; κ: not applicable — %1.</source>
        <translation>Каппа Флейса: неприменима — %1.</translation>
    </message>
    <message>
        <source>Fleiss&apos; κ = %1 (%2 documents, %3 grades each; nominal, chance-corrected)</source>
        <translation>Каппа Флейса = %1 (документов: %2, по %3 оценки у каждого; номинальная, с поправкой на случайность)</translation>
    </message>
    <message>
        <source>Machine source %1: labels from %2; templates %3</source>
        <translation>Машинный источник %1: метки от %2; шаблоны %3</translation>
    </message>
    <message>
        <source>more than one model or template</source>
        <translation>несколько моделей или шаблонов</translation>
    </message>
</context>
<context>
    <name>AnnotateLoader</name>
    <message>
        <source>Loading…</source>
        <extracomment>where the last opened query is remembered (&quot;database label
query external id&quot;) ranks the list&apos;s texts in the collation after the list is shown (see QueryColumns) the query opened as the first of the list before its pools were counted (the counts then say whether it is the first unfinished one): see :meth:`_on_rows_listed` a reload came while the list was counted: the open pool is read again with the counts the document to show when the loading query&apos;s pool arrives a reload came while the view was hidden in a shown window: load when it is shown</extracomment>
        <translation>Загрузка…</translation>
    </message>
    <message>
        <source>No database is open.

Use File ▸ New database… (Ctrl+N) or File ▸ Open database… (Ctrl+O).</source>
        <translation>База данных не открыта.

Выберите Файл ▸ Новая база данных… (Ctrl+N) или Файл ▸ Открыть базу данных… (Ctrl+O).</translation>
    </message>
    <message>
        <source>Loading queries…</source>
        <translation>Загрузка запросов…</translation>
    </message>
    <message>
        <source>Pool</source>
        <translation>Пул</translation>
    </message>
    <message>
        <source>This database has no queries yet.

Import queries, documents and runs with File ▸ Import…, or start the app with --demo for the Cranfield collection.</source>
        <translation>В этой базе пока нет запросов.

Импортируйте запросы, документы и прогоны через Файл ▸ Импорт… или запустите программу с --demo для коллекции Cranfield.</translation>
    </message>
    <message>
        <source>Loading the pool</source>
        <translation>Загрузка пула</translation>
    </message>
    <message>
        <source>(no text)</source>
        <translation>(нет текста)</translation>
    </message>
    <message>
        <source>Nothing to judge for this query: no run returned a document for it.</source>
        <translation>Для этого запроса нечего оценивать: ни один прогон не вернул по нему документов.</translation>
    </message>
</context>
<context>
    <name>AnnotateView</name>
    <message>
        <source>Queries</source>
        <extracomment>the query list is shown (its pools may still be counted: see :attr:`rows_loaded`) the query list with its pools counted is shown and a query is open a grade key or Enter with nobody annotating yet: the window asks for a name (an analyst who never grades is never asked)</extracomment>
        <translation>Запросы</translation>
    </message>
    <message>
        <source>Pool · %1 / %2 judged</source>
        <translation>Пул · оценено %1 / %2</translation>
    </message>
    <message>
        <source>%1 queries · counting the pools…</source>
        <translation>Запросов: %1 · подсчёт пулов…</translation>
    </message>
    <message>
        <source>%1 of %2 queries complete · %3 / %4 documents judged</source>
        <translation>завершено запросов: %1 из %2 · оценено документов: %3 / %4</translation>
    </message>
    <message>
        <source>Nobody is annotating yet: press a grade key or Enter to give your name.</source>
        <translation>Асессор ещё не выбран: нажмите клавишу оценки или Enter, чтобы ввести своё имя.</translation>
    </message>
    <message>
        <source>Everything in the list is judged.</source>
        <translation>Всё в списке оценено.</translation>
    </message>
</context>
<context>
    <name>AnnotatorStatusModel</name>
    <message>
        <source>Annotator</source>
        <extracomment>(header, field of AnnotatorStatus); headers translated in context &quot;AnnotatorStatusModel&quot;</extracomment>
        <translation>Асессор</translation>
    </message>
    <message>
        <source>Assigned</source>
        <translation>Назначено</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Готово</translation>
    </message>
    <message>
        <source>Can&apos;t judge</source>
        <translation>Не могу оценить</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Позже</translation>
    </message>
    <message>
        <source>Median s</source>
        <translation>Медиана, с</translation>
    </message>
    <message>
        <source>Leniency</source>
        <translation>Мягкость</translation>
    </message>
    <message>
        <source>κ vs others</source>
        <translation>κ с другими</translation>
    </message>
    <message>
        <source>α without</source>
        <translation>α без</translation>
    </message>
    <message>
        <source>Gold exact</source>
        <translation>Эталон точно</translation>
    </message>
    <message>
        <source>Gold ±1</source>
        <translation>Эталон ±1</translation>
    </message>
    <message>
        <source>Grades 0–4</source>
        <translation>Оценки 0–4</translation>
    </message>
    <message>
        <source>Gold accuracy below the campaign&apos;s threshold</source>
        <translation>Точность по эталону ниже порога кампании</translation>
    </message>
</context>
<context>
    <name>AppContext</name>
    <message>
        <source>no database is open: use File ▸ Open database… first</source>
        <translation>база данных не открыта: сначала выберите Файл ▸ Открыть базу данных…</translation>
    </message>
</context>
<context>
    <name>BandCountsChart</name>
    <message>
        <source>Queries per quality band</source>
        <extracomment>categorical series colours (Okabe–Ito: blue, orange, bluish green, reddish purple, …) run A / run B better, in the Compare chart</extracomment>
        <translation>Запросы по уровням качества</translation>
    </message>
    <message>
        <source>queries</source>
        <translation>запросы</translation>
    </message>
</context>
<context>
    <name>Bands</name>
    <message>
        <source>Excellent</source>
        <extracomment>item-data role carrying a band code (int, :data:`NO_BAND` for none) in the models fill of each band&apos;s chip (Okabe–Ito blue, sky blue, yellow, orange, vermillion) the name of each band as the GUI shows it (translated in context &quot;Bands&quot;; the Chinese names are those of the documents the app grew from: 优秀 / 良好 / 一般 / 差 / 很差)</extracomment>
        <translation>Отлично</translation>
    </message>
    <message>
        <source>Good</source>
        <translation>Хорошо</translation>
    </message>
    <message>
        <source>Fair</source>
        <translation>Средне</translation>
    </message>
    <message>
        <source>Poor</source>
        <translation>Слабо</translation>
    </message>
    <message>
        <source>Bad</source>
        <translation>Плохо</translation>
    </message>
    <message>
        <source>no band: the query has no judgments, so nDCG is undefined</source>
        <translation>нет уровня: у запроса нет оценок, nDCG не определён</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>BreakdownTableModel</name>
    <message>
        <source>unjudged</source>
        <extracomment>background of a disputed row: translucent Okabe–Ito orange, visible on light and dark bases</extracomment>
        <translation>без оценки</translation>
    </message>
    <message>
        <source>Cumulative DCG</source>
        <translation>Накопленный DCG</translation>
    </message>
    <message>
        <source>Cumulative IDCG</source>
        <translation>Накопленный IDCG</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Позиция</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Документ</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Заголовок</translation>
    </message>
    <message>
        <source>Consensus</source>
        <translation>Согласование</translation>
    </message>
    <message>
        <source>Gain</source>
        <translation>Выигрыш</translation>
    </message>
    <message>
        <source>Discount</source>
        <translation>Дисконт</translation>
    </message>
    <message>
        <source>Disc. gain</source>
        <translation>Дисконт. выигрыш</translation>
    </message>
    <message>
        <source>Grade given by %1 (0–4)</source>
        <translation>Оценка асессора %1 (0–4)</translation>
    </message>
    <message>
        <source>Position in the run&apos;s order (score descending, ties by document id descending)</source>
        <translation>Позиция в порядке прогона (по убыванию балла, при равенстве — по убыванию id документа)</translation>
    </message>
    <message>
        <source>Position in the ideal order (gain descending)</source>
        <translation>Позиция в идеальном ранжировании (по убыванию выигрыша)</translation>
    </message>
    <message>
        <source>One grade per document: the %1 of the annotators&apos; grades (an adjudicated grade wins)</source>
        <translation>Одна оценка на документ: %1 оценок асессоров (решение арбитра приоритетно)</translation>
    </message>
    <message>
        <source>gain = grade</source>
        <translation>выигрыш = оценка</translation>
    </message>
    <message>
        <source>gain = 2^grade − 1</source>
        <translation>выигрыш = 2^оценка − 1</translation>
    </message>
    <message>
        <source>discount = 1 / log2(rank + 1)</source>
        <translation>дисконт = 1 / log2(позиция + 1)</translation>
    </message>
    <message>
        <source>discounted gain = gain × discount</source>
        <translation>дисконтированный выигрыш = выигрыш × дисконт</translation>
    </message>
    <message>
        <source>running sum of the discounted gains</source>
        <translation>накопленная сумма дисконтированных выигрышей</translation>
    </message>
    <message>
        <source>%1
Disputed: grades differ by %2 (≥ %3) — %4</source>
        <translation>%1
Спорный: оценки расходятся на %2 (≥ %3) — %4</translation>
    </message>
    <message>
        <source>Nobody judged this document for this query: it counts as gain 0.</source>
        <translation>Никто не оценил этот документ для этого запроса: он считается с выигрышем 0.</translation>
    </message>
</context>
<context>
    <name>CampaignDashboard</name>
    <message>
        <source>open</source>
        <extracomment>a campaign&apos;s status as the dashboard names it</extracomment>
        <translation>открыта</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>закрыта</translation>
    </message>
    <message>
        <source>Campaign dashboard</source>
        <translation>Панель кампании</translation>
    </message>
    <message>
        <source>No campaign yet: Campaign ▸ New campaign…</source>
        <translation>Кампаний пока нет: Кампания ▸ Новая кампания…</translation>
    </message>
    <message>
        <source>Computing the statistics of %1…</source>
        <translation>Расчёт статистики кампании %1…</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt; (%2) · %3 / %4 items complete with %5 grade(s) each · %6 gold at %7 · %8 / %9 queries complete · runs %10 at depth %11</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; (%2) · завершено %3 / %4 элементов, по %5 оценке на каждый · эталонных %6 (доля %7) · завершено запросов %8 / %9 · прогоны %10 на глубине %11</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; (%2) · завершено %3 / %4 элементов, по %5 оценки на каждый · эталонных %6 (доля %7) · завершено запросов %8 / %9 · прогоны %10 на глубине %11</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; (%2) · завершено %3 / %4 элементов, по %5 оценок на каждый · эталонных %6 (доля %7) · завершено запросов %8 / %9 · прогоны %10 на глубине %11</numerusform>
        </translation>
    </message>
    <message>
        <source>Drawn queries (ppi): %1 of %2 drawn (%3 expected), %4 complete · estimate ready</source>
        <translation>Выбранные запросы (ppi): выбрано %1 из %2 (ожидалось %3), завершено %4 · оценка готова</translation>
    </message>
    <message>
        <source>Drawn queries (ppi): %1 of %2 drawn (%3 expected), %4 complete · unfinished: %5, first: %6</source>
        <translation>Выбранные запросы (ppi): выбрано %1 из %2 (ожидалось %3), завершено %4 · не завершено: %5, первый: %6</translation>
    </message>
    <message>
        <source>%1 later</source>
        <translation>%1 позже</translation>
    </message>
    <message>
        <source>%1 can&apos;t judge (%2)</source>
        <translation>%1 не может оценить (%2)</translation>
    </message>
    <message>
        <source>%1 can&apos;t judge</source>
        <translation>%1 не может оценить</translation>
    </message>
    <message>
        <source>No marks.</source>
        <translation>Отметок нет.</translation>
    </message>
    <message>
        <source>Marks: %1</source>
        <translation>Отметки: %1</translation>
    </message>
    <message>
        <source>; </source>
        <translation>; </translation>
    </message>
</context>
<context>
    <name>CampaignDialog</name>
    <message>
        <source>New campaign</source>
        <translation>Новая кампания</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Название</translation>
    </message>
    <message>
        <source>Runs to pool</source>
        <translation>Прогоны для пула</translation>
    </message>
    <message>
        <source>no machine source: import one&apos;s grades first</source>
        <translation>нет машинного источника: сначала импортируйте его оценки</translation>
    </message>
    <message>
        <source>Machine source</source>
        <translation>Машинный источник</translation>
    </message>
    <message>
        <source>names separated by spaces or commas</source>
        <translation>имена через пробел или запятую</translation>
    </message>
    <message>
        <source>Annotators</source>
        <translation>Асессоры</translation>
    </message>
    <message>
        <source># Guidelines

What makes a document *relevant*…</source>
        <translation># Инструкция

Что делает документ *релевантным*…</translation>
    </message>
    <message>
        <source>Guidelines (Markdown)</source>
        <translation>Инструкция (Markdown)</translation>
    </message>
    <message>
        <source>depth</source>
        <translation>глубина</translation>
    </message>
    <message>
        <source>grades per item</source>
        <translation>оценок на элемент</translation>
    </message>
    <message>
        <source>Pool</source>
        <translation>Пул</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>K</source>
        <translation>K</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Порядок</translation>
    </message>
    <message>
        <source>fewest grades first, shuffled (depth)</source>
        <translation>сначала с наименьшим числом оценок, вперемешку (depth)</translation>
    </message>
    <message>
        <source>move-to-front (mtf)</source>
        <translation>перемещение в начало (mtf)</translation>
    </message>
    <message>
        <source>discounted MaxMean bandit (bandit)</source>
        <translation>бандит MaxMean с затуханием (bandit)</translation>
    </message>
    <message>
        <source>what decides run A vs B (ab)</source>
        <translation>то, что решает прогоны A и B (ab)</translation>
    </message>
    <message>
        <source>what shrinks the interval of the estimate of A vs B (ppi)</source>
        <translation>то, что сужает интервал оценки A против B (ppi)</translation>
    </message>
    <message>
        <source>Queries drawn (expected)</source>
        <translation>Выбираемые запросы (ожидаемое число)</translation>
    </message>
    <message>
        <source>a quarter of the queries, at least %1</source>
        <translation>четверть запросов, не меньше %1</translation>
    </message>
    <message>
        <source>all queries</source>
        <translation>все запросы</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>зерно</translation>
    </message>
    <message>
        <source>Query sample</source>
        <translation>Выборка запросов</translation>
    </message>
    <message>
        <source>none: no gold checks (a file of QUERY [ITER] DOCUMENT GRADE lines)</source>
        <translation>нет: без проверки эталонами (файл строк QUERY [ITER] DOCUMENT GRADE)</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Выбрать…</translation>
    </message>
    <message>
        <source>Gold items</source>
        <translation>Эталонные пары</translation>
    </message>
    <message>
        <source>warn below</source>
        <translation>предупреждать ниже</translation>
    </message>
    <message>
        <source>Gold rate</source>
        <translation>Доля эталонов</translation>
    </message>
    <message>
        <source>Gold items or qrels (*.txt *.qrels *.tsv);;All files (*)</source>
        <translation>Эталонные пары или qrels (*.txt *.qrels *.tsv);;Все файлы (*)</translation>
    </message>
    <message>
        <source>No database is open.</source>
        <translation>База данных не открыта.</translation>
    </message>
</context>
<context>
    <name>CampaignMenu</name>
    <message>
        <source>&amp;Campaign</source>
        <translation>&amp;Кампания</translation>
    </message>
    <message>
        <source>Campaign %1 is created: %2 items pooled from %3 at depth %4, %5 grades per item (gold items: %6), offered in %8 order to %7.

Its annotators find it in Annotate&apos;s Campaign tab; Campaign ▸ Lead&apos;s dashboard follows it.</source>
        <translation>Кампания %1 создана: %2 пар из пула %3 глубиной %4, оценок на пару: %5 (эталонных пар: %6), порядок выдачи %8, асессоры: %7.

Асессоры найдут её на вкладке «Кампания» в разделе «Разметка»; Кампания ▸ Панель руководителя показывает её ход.</translation>
    </message>
    <message>
        <source>New campaign</source>
        <translation>Новая кампания</translation>
    </message>
    <message>
        <source>&amp;New campaign…</source>
        <translation>&amp;Новая кампания…</translation>
    </message>
    <message>
        <source>Lead&apos;s &amp;dashboard…</source>
        <translation>&amp;Панель руководителя…</translation>
    </message>
    <message>
        <source>Next from &amp;queue</source>
        <translation>Следующий из &amp;очереди</translation>
    </message>
</context>
<context>
    <name>CampaignPanel</name>
    <message>
        <source>(no campaign: the whole pool)</source>
        <extracomment>the chooser&apos;s first item (translated in context &quot;CampaignPanel&quot;)</extracomment>
        <translation>(без кампании: весь пул)</translation>
    </message>
    <message>
        <source>Campaign</source>
        <translation>Кампания</translation>
    </message>
    <message>
        <source>Next from queue</source>
        <translation>Следующий из очереди</translation>
    </message>
    <message>
        <source>Open the next document the campaign offers you (Q)</source>
        <translation>Открыть следующий документ, который предлагает кампания (Q)</translation>
    </message>
    <message>
        <source>Can&apos;t judge…</source>
        <translation>Не могу оценить…</translation>
    </message>
    <message>
        <source>You cannot judge this document: say why (X)</source>
        <translation>Вы не можете оценить этот документ: укажите почему (X)</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Позже</translation>
    </message>
    <message>
        <source>Skip this document for now (L)</source>
        <translation>Пока пропустить этот документ (L)</translation>
    </message>
    <message>
        <source>*No guidelines for this campaign.*</source>
        <translation>*У этой кампании нет инструкции.*</translation>
    </message>
    <message>
        <source>Description.</source>
        <translation>Описание.</translation>
    </message>
    <message>
        <source>Narrative.</source>
        <translation>Пояснение.</translation>
    </message>
    <message>
        <source>Query %1</source>
        <translation>Запрос %1</translation>
    </message>
    <message>
        <source>You: %1 graded · %2 can&apos;t judge · %3 later</source>
        <translation>Вы: оценено %1 · не могу оценить %2 · позже %3</translation>
    </message>
    <message>
        <source>You take part in no open campaign: there is no queue to take from.</source>
        <translation>Вы не участвуете ни в одной открытой кампании: брать документы не из чего.</translation>
    </message>
    <message>
        <source>Choose a campaign in the Campaign tab to take from its queue.</source>
        <translation>Выберите кампанию на вкладке «Кампания», чтобы брать документы из её очереди.</translation>
    </message>
    <message>
        <source>Taking the next document</source>
        <translation>Получение следующего документа</translation>
    </message>
    <message>
        <source>%1
Nothing left for you in this campaign.</source>
        <translation>%1
В этой кампании для вас больше ничего нет.</translation>
    </message>
    <message>
        <source>Marking the document</source>
        <translation>Отметка документа</translation>
    </message>
    <message>
        <source>Can&apos;t judge</source>
        <translation>Не могу оценить</translation>
    </message>
    <message>
        <source>Why can&apos;t you judge it?</source>
        <translation>Почему вы не можете его оценить?</translation>
    </message>
</context>
<context>
    <name>ChangesPanel</name>
    <message>
        <source>RBO&apos;s persistence: the weight of rank d+1 relative to rank d (0.9: the top 10 weigh most)</source>
        <translation>Параметр p меры RBO: вес ранга d+1 относительно ранга d (0,9: важнее всего первые 10)</translation>
    </message>
    <message>
        <source>Judge what entered…</source>
        <translation>Оценить вошедшие…</translation>
    </message>
    <message>
        <source>Make the documents that entered B&apos;s top K unjudged a judging campaign</source>
        <translation>Создать кампанию оценки из документов, вошедших в топ-K прогона B без оценок</translation>
    </message>
    <message>
        <source>RBO p:</source>
        <translation>p для RBO:</translation>
    </message>
    <message>
        <source>Computing what changed…</source>
        <translation>Вычисляем изменения…</translation>
    </message>
    <message>
        <source>Nothing to compare: %1</source>
        <translation>Нечего сравнивать: %1</translation>
    </message>
    <message>
        <source>Finding what changed</source>
        <translation>Поиск изменений</translation>
    </message>
    <message>
        <source>Mean over %1 queries: overlap@%2 %3 · Jaccard %4 · RBO (p = %5) %6 · ΔnDCG@%2 (B − A) %7</source>
        <translation>Среднее по запросам (%1): перекрытие@%2 %3 · коэффициент Жаккара %4 · RBO (p = %5) %6 · ΔnDCG@%2 (B − A) %7</translation>
    </message>
    <message>
        <source>Entered the top %1: %2 documents, %3 of them unjudged; left it: %4.</source>
        <translation>Вошли в топ-%1 документов: %2, из них без оценок: %3; вышли из него: %4.</translation>
    </message>
    <message>
        <source>Creating the campaign…</source>
        <translation>Создаём кампанию…</translation>
    </message>
    <message>
        <source>Campaign %1 is created: %2 documents that entered %3&apos;s top %4 unjudged, for %5. Its annotators find it in Annotate&apos;s Campaign tab.</source>
        <translation>Кампания %1 создана: документов, вошедших в топ-%4 прогона %3 без оценок, — %2; оценщики: %5. Они найдут её на вкладке «Кампания» в разделе «Разметка».</translation>
    </message>
    <message>
        <source>No campaign: %1</source>
        <translation>Кампания не создана: %1</translation>
    </message>
    <message>
        <source>Creating the campaign</source>
        <translation>Создание кампании</translation>
    </message>
</context>
<context>
    <name>ChangesTableModel</name>
    <message>
        <source>Query</source>
        <extracomment>at most this many document ids in a cell&apos;s tooltip</extracomment>
        <translation>Запрос</translation>
    </message>
    <message>
        <source>Overlap</source>
        <translation>Перекрытие</translation>
    </message>
    <message>
        <source>Entered</source>
        <translation>Вошли</translation>
    </message>
    <message>
        <source>Left</source>
        <translation>Вышли</translation>
    </message>
    <message>
        <source>Entered unjudged</source>
        <translation>Вошли без оценок</translation>
    </message>
    <message>
        <source>Documents in both top %1, divided by %1</source>
        <translation>Документы, которые есть в обоих топ-%1, делённые на %1</translation>
    </message>
    <message>
        <source>Rank-biased overlap of the two top %1, extrapolated (Webber et al. 2010), p = %2</source>
        <translation>Ранго-взвешенное перекрытие (RBO) двух топ-%1, экстраполированное (Webber и др., 2010), p = %2</translation>
    </message>
    <message>
        <source>Documents in B&apos;s top %1 and not in A&apos;s</source>
        <translation>Документы из топ-%1 прогона B, которых нет в топ-%1 прогона A</translation>
    </message>
    <message>
        <source>Documents in A&apos;s top %1 and not in B&apos;s</source>
        <translation>Документы из топ-%1 прогона A, которых нет в топ-%1 прогона B</translation>
    </message>
    <message>
        <source>Documents that entered and have no judgment yet</source>
        <translation>Вошедшие документы, у которых ещё нет оценки</translation>
    </message>
    <message>
        <source>nDCG@%1 of B minus nDCG@%1 of A</source>
        <translation>nDCG@%1 прогона B минус nDCG@%1 прогона A</translation>
    </message>
</context>
<context>
    <name>CompareMatrixPanel</name>
    <message>
        <source>No baseline: every pair, corrected by the randomised Tukey HSD. A baseline: only the pairs with it, corrected by Holm–Bonferroni.</source>
        <extracomment>permutations of the randomised Tukey HSD in the GUI (the CLI&apos;s default too)</extracomment>
        <translation>Без базовой линии: все пары, поправка рандомизированным критерием Тьюки (HSD). С базовой линией: только пары с ней, поправка Холма–Бонферрони.</translation>
    </message>
    <message>
        <source>All runs, best mean first · baseline:</source>
        <translation>Все прогоны, лучшее среднее первым · базовая линия:</translation>
    </message>
    <message>
        <source>Δ = row run − column run; click a cell for its per-query deltas</source>
        <translation>Δ = прогон строки − прогон столбца; щёлкните ячейку, чтобы увидеть разности по запросам</translation>
    </message>
    <message>
        <source>none (Tukey HSD, all pairs)</source>
        <translation>нет (HSD Тьюки, все пары)</translation>
    </message>
    <message>
        <source>Testing all pairs…</source>
        <translation>Проверка всех пар…</translation>
    </message>
    <message>
        <source> (%1 left out: not scored in every run)</source>
        <translation> (не учтено: %1 — оценены не во всех прогонах)</translation>
    </message>
    <message>
        <source>Δ = mean nDCG@%1 of the row run − the column run over the %2 queries every run has a value for</source>
        <translation>Δ = среднее nDCG@%1 прогона строки − прогона столбца по %2 запросам, для которых есть значение у каждого прогона</translation>
    </message>
    <message>
        <source>; * p &lt; 0.05, ** p &lt; 0.01, *** p &lt; 0.001, corrected: %1.</source>
        <translation>; * p &lt; 0.05, ** p &lt; 0.01, *** p &lt; 0.001, поправка: %1.</translation>
    </message>
    <message>
        <source>With %1 queries you can detect Δ ≥ %2 at 80% power (paired t-test, α = 0.05, residual variance of the two-way ANOVA; Sakai 2016).</source>
        <translation>С %1 запросами можно обнаружить Δ ≥ %2 при мощности 80% (парный t-тест, α = 0,05, остаточная дисперсия двухфакторного дисперсионного анализа; Sakai 2016).</translation>
    </message>
    <message>
        <source>With %1 queries: the residual variance is 0 (every query moves the runs alike), so no smallest detectable Δ can be stated (paired t-test, α = 0.05, residual variance of the two-way ANOVA; Sakai 2016).</source>
        <translation>С %1 запросами: остаточная дисперсия равна 0 (каждый запрос сдвигает прогоны одинаково), поэтому наименьшую обнаружимую Δ указать нельзя (парный t-тест, α = 0,05, остаточная дисперсия двухфакторного дисперсионного анализа; Sakai 2016).</translation>
    </message>
    <message>
        <source>No comparison: %1.</source>
        <translation>Сравнение невозможно: %1.</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Ошибка</translation>
    </message>
    <message>
        <source>Comparing all runs</source>
        <translation>Сравнение всех прогонов</translation>
    </message>
</context>
<context>
    <name>CompareText</name>
    <message>
        <source>Δ mean nDCG@%1 (A − B) ∈ [%2, %3] whatever grades the unjudged documents get</source>
        <translation>Δ среднего nDCG@%1 (A − B) ∈ [%2, %3] при любых оценках неоценённых документов</translation>
    </message>
    <message>
        <source>P(A better) ≈ %1 (estimate)</source>
        <translation>P(A лучше) ≈ %1 (приблизительно)</translation>
    </message>
    <message>
        <source>%1 better than %2 — decided after %3 of %4 pooled documents (depth %5). %6. %7.</source>
        <translation>%1 лучше, чем %2, — решено после %3 из %4 документов пула (глубина %5). %6. %7.</translation>
    </message>
    <message>
        <source>even every pooled document judged at its expected grade would not settle it (estimate)</source>
        <translation>даже оценка всех документов пула ожидаемыми оценками этого не решит (приблизительно)</translation>
    </message>
    <message numerus="yes">
        <source>about %1 more judgment(s) would settle it at the current rate (estimate)</source>
        <translation>
            <numerusform>при текущем темпе это решит ещё примерно %1 оценка (приблизительно)</numerusform>
            <numerusform>при текущем темпе это решат ещё примерно %1 оценки (приблизительно)</numerusform>
            <numerusform>при текущем темпе это решат ещё примерно %1 оценок (приблизительно)</numerusform>
        </translation>
    </message>
    <message>
        <source>Not yet decided (%1 of %2 pooled documents judged, depth %3): %4. %5. %6.</source>
        <translation>Ещё не решено (оценено %1 из %2 документов пула, глубина %3): %4. %5. %6.</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>Scoring…</source>
        <translation>Расчёт…</translation>
    </message>
    <message>
        <source>Comparing runs</source>
        <translation>Сравнение прогонов</translation>
    </message>
    <message>
        <source>Per-query Δ</source>
        <translation>Δ по запросам</translation>
    </message>
    <message>
        <source>What changed (A → B)</source>
        <translation>Что изменилось (A → B)</translation>
    </message>
    <message>
        <source>⇄ Swap</source>
        <translation>⇄ Поменять</translation>
    </message>
    <message>
        <source>Exchange run A and run B</source>
        <translation>Поменять местами прогоны A и B</translation>
    </message>
    <message>
        <source>vs</source>
        <translation>и</translation>
    </message>
    <message>
        <source>Decided: the interval of Δ mean nDCG@K over every grade (0–4) the unjudged documents of the Annotate pool (depth D) could still get excludes 0 — no judgment can flip it.
Not decided: the number of judgments is an estimate (the documents that decide A vs B first, each at the mean judged grade of its rank), and so is P(A better) (unjudged grades drawn from the judged grades at similar ranks; Carterette et al. 2006).</source>
        <translation>Решено: интервал Δ среднего nDCG@K по всем оценкам (0–4), которые ещё могут получить неоценённые документы пула разметки (глубина D), не содержит 0 — никакая оценка не изменит результат.
Не решено: число оценок — приблизительное (сначала документы, решающие спор A и B, каждый со средней оценкой своей позиции), как и P(A лучше) (оценки неоценённых берутся из оценённых на близких позициях; Carterette и др., 2006).</translation>
    </message>
    <message>
        <source>Judge what decides A vs B</source>
        <translation>Оценить то, что решает A и B</translation>
    </message>
    <message>
        <source>Annotate shows first the documents whose grade can change which run is better (Annotator ▸ Pool order); annotators still see no run, rank or score</source>
        <translation>Разметка сначала показывает документы, оценка которых может изменить, какой прогон лучше (Асессор ▸ Порядок пула); асессоры по-прежнему не видят ни прогонов, ни позиций, ни баллов</translation>
    </message>
    <message>
        <source>Comparing needs two runs: import another run (File ▸ Import…).</source>
        <translation>Для сравнения нужны два прогона: импортируйте ещё один (Файл ▸ Импорт…).</translation>
    </message>
    <message>
        <source>No runs yet: import runs (File ▸ Import…).</source>
        <translation>Прогонов пока нет: импортируйте их (Файл ▸ Импорт…).</translation>
    </message>
    <message>
        <source>Pick two different runs.</source>
        <translation>Выберите два разных прогона.</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>Сравнение…</translation>
    </message>
    <message>
        <source>Verdict over the depth-%1 pool: computing…</source>
        <translation>Вывод по пулу глубины %1: вычисляется…</translation>
    </message>
    <message>
        <source>No verdict: %1</source>
        <translation>Вывода нет: %1</translation>
    </message>
    <message>
        <source>Annotate now shows first what decides A vs B</source>
        <translation>Разметка теперь сначала показывает то, что решает A и B</translation>
    </message>
    <message>
        <source>Testing significance…</source>
        <translation>Проверка значимости…</translation>
    </message>
    <message>
        <source>no judged queries</source>
        <translation>нет оценённых запросов</translation>
    </message>
    <message>
        <source>mean nDCG@%1 &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>среднее nDCG@%1 &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>95% CI computing…</source>
        <translation>95% ДИ: вычисляется…</translation>
    </message>
    <message>
        <source>95% CI %1 – %2</source>
        <translation>95% ДИ %1 – %2</translation>
    </message>
    <message>
        <source>%1 judged queries</source>
        <translation>оценённых запросов: %1</translation>
    </message>
    <message>
        <source>No query has an nDCG in both runs.</source>
        <translation>Ни у одного запроса нет nDCG в обоих прогонах.</translation>
    </message>
    <message>
        <source>Over the %1 queries scored in both runs: mean Δ (A − B) = &lt;b&gt;%2&lt;/b&gt; &amp;nbsp;·&amp;nbsp; A better on &lt;b&gt;%3&lt;/b&gt; &amp;nbsp;·&amp;nbsp; B better on &lt;b&gt;%4&lt;/b&gt; &amp;nbsp;·&amp;nbsp; ties %5</source>
        <translation>По запросам, рассчитанным в обоих прогонах (%1): среднее Δ (A − B) = &lt;b&gt;%2&lt;/b&gt; &amp;nbsp;·&amp;nbsp; A лучше: &lt;b&gt;%3&lt;/b&gt; &amp;nbsp;·&amp;nbsp; B лучше: &lt;b&gt;%4&lt;/b&gt; &amp;nbsp;·&amp;nbsp; ничьих: %5</translation>
    </message>
    <message>
        <source>Paired randomization test: computing (10,000 sign flips)…</source>
        <translation>Парный рандомизационный тест: вычисляется (10 000 смен знаков)…</translation>
    </message>
    <message>
        <source>Paired randomization test (two-sided, random sign flips of the per-query deltas): %1 — the difference is significant at the 0.05 level.</source>
        <translation>Парный рандомизационный тест (двусторонний, случайная смена знаков разностей по запросам): %1 — различие значимо на уровне 0,05.</translation>
    </message>
    <message>
        <source>Paired randomization test (two-sided, random sign flips of the per-query deltas): %1 — the difference is not significant at the 0.05 level.</source>
        <translation>Парный рандомизационный тест (двусторонний, случайная смена знаков разностей по запросам): %1 — различие не значимо на уровне 0,05.</translation>
    </message>
</context>
<context>
    <name>CondensedPanel</name>
    <message>
        <source>Scoring nDCG′…</source>
        <translation>Расчёт nDCG′…</translation>
    </message>
    <message>
        <source>Scoring nDCG′</source>
        <translation>Расчёт nDCG′</translation>
    </message>
    <message>
        <source>Flag rows where |nDCG′ − nDCG| exceeds this</source>
        <translation>Отмечать строки, где |nDCG′ − nDCG| больше этого значения</translation>
    </message>
    <message>
        <source>Only flagged rows</source>
        <translation>Только отмеченные строки</translation>
    </message>
    <message>
        <source>Flag when nDCG′ and nDCG differ by more than</source>
        <translation>Отмечать, когда nDCG′ и nDCG различаются больше чем на</translation>
    </message>
    <message>
        <source>No judged (query, run) yet: nothing to compare.</source>
        <translation>Пока нет оценённых пар (запрос, прогон): сравнивать нечего.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; of %2 judged (query, run) rows differ by more than %3: there, holes in the judgments move the score (%4). nDCG′@%5 removes the unjudged documents before scoring (Sakai 2007).</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; из %2 оценённых строк (запрос, прогон) различаются больше чем на %3: там пробелы в оценках сдвигают результат (%4). nDCG′@%5 убирает неоценённые документы перед расчётом (Sakai 2007).</translation>
    </message>
</context>
<context>
    <name>CondensedTableModel</name>
    <message>
        <source>Query</source>
        <extracomment>|nDCG′ − nDCG| above this flags a row by default</extracomment>
        <translation>Запрос</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Прогон</translation>
    </message>
    <message>
        <source>Judged@%1</source>
        <translation>Оценено@%1</translation>
    </message>
    <message>
        <source>nDCG and nDCG′ differ by more than %1: the unjudged documents of this list move the score; judge them (Annotate) to settle it</source>
        <translation>nDCG и nDCG′ расходятся больше чем на %1: неоценённые документы этого списка меняют балл; оцените их (Разметка), чтобы это решить</translation>
    </message>
</context>
<context>
    <name>Counts</name>
    <message numerus="yes">
        <source>%1 annotator(s)</source>
        <extracomment>the language the running application shows (set by :func:`apply_language`)</extracomment>
        <translation>
            <numerusform>%1 асессор</numerusform>
            <numerusform>%1 асессора</numerusform>
            <numerusform>%1 асессоров</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 document(s)</source>
        <translation>
            <numerusform>%1 документ</numerusform>
            <numerusform>%1 документа</numerusform>
            <numerusform>%1 документов</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 item(s)</source>
        <translation>
            <numerusform>%1 элемент</numerusform>
            <numerusform>%1 элемента</numerusform>
            <numerusform>%1 элементов</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 judgment(s)</source>
        <translation>
            <numerusform>%1 оценка</numerusform>
            <numerusform>%1 оценки</numerusform>
            <numerusform>%1 оценок</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 query(ies)</source>
        <translation>
            <numerusform>%1 запрос</numerusform>
            <numerusform>%1 запроса</numerusform>
            <numerusform>%1 запросов</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 row(s)</source>
        <translation>
            <numerusform>%1 строка</numerusform>
            <numerusform>%1 строки</numerusform>
            <numerusform>%1 строк</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 run(s)</source>
        <translation>
            <numerusform>%1 прогон</numerusform>
            <numerusform>%1 прогона</numerusform>
            <numerusform>%1 прогонов</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CumulativeDcgChart</name>
    <message>
        <source>Cumulative DCG by rank</source>
        <translation>Накопленный DCG по позициям</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>позиция</translation>
    </message>
    <message>
        <source>ideal (IDCG)</source>
        <translation>идеальное ранжирование (IDCG)</translation>
    </message>
    <message>
        <source>%1 (DCG)</source>
        <translation>%1 (DCG)</translation>
    </message>
</context>
<context>
    <name>DatabaseMenu</name>
    <message>
        <source>New database</source>
        <translation>Новая база данных</translation>
    </message>
    <message>
        <source>SQLite database (*.sqlite *.db)</source>
        <translation>База данных SQLite (*.sqlite *.db)</translation>
    </message>
    <message>
        <source>%1 already exists; use File ▸ Open database… to open it.</source>
        <translation>%1 уже существует; откройте её через Файл ▸ Открыть базу данных….</translation>
    </message>
    <message>
        <source>Open database</source>
        <translation>Открыть базу данных</translation>
    </message>
    <message>
        <source>SQLite database (*.sqlite *.db);;All files (*)</source>
        <translation>База данных SQLite (*.sqlite *.db);;Все файлы (*)</translation>
    </message>
    <message>
        <source>Connect to a team server</source>
        <translation>Подключение к серверу команды</translation>
    </message>
    <message>
        <source>PostgreSQL URL (password in ~/.pgpass or $PGPASSWORD, not here):</source>
        <translation>URL PostgreSQL (пароль — в ~/.pgpass или $PGPASSWORD, не здесь):</translation>
    </message>
    <message>
        <source>Opening the database</source>
        <translation>Открытие базы данных</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>Открытие %1…</translation>
    </message>
    <message>
        <source>There is no database at %1.

Create a new, empty database there?</source>
        <translation>По адресу %1 базы данных нет.

Создать там новую пустую базу?</translation>
    </message>
    <message>
        <source>Load the demo</source>
        <translation>Загрузка демо</translation>
    </message>
    <message>
        <source>The demo collection goes into an empty database, and this one already holds queries.

Create one with File ▸ New database…, then load the demo there.</source>
        <translation>Демо-коллекция загружается в пустую базу, а в этой уже есть запросы.

Создайте базу через Файл ▸ Новая база данных… и загрузите демо туда.</translation>
    </message>
    <message>
        <source>Cranfield demo loaded: 1,400 documents, 225 queries, Cleverdon&apos;s judgments (annotator %1), runs %2</source>
        <translation>Демонстрационная коллекция Cranfield загружена: 1 400 документов, 225 запросов, оценки Кливердона (асессор %1), прогоны %2</translation>
    </message>
    <message>
        <source>Loading the Cranfield demo collection…</source>
        <translation>Загрузка демо-коллекции Cranfield…</translation>
    </message>
</context>
<context>
    <name>DeltaChart</name>
    <message>
        <source>Per-query Δ nDCG, sorted</source>
        <translation>Δ nDCG по запросам, по порядку</translation>
    </message>
    <message>
        <source>%1 better</source>
        <translation>%1 лучше</translation>
    </message>
    <message numerus="yes">
        <source>%n queries, sorted by Δ</source>
        <translation>
            <numerusform>%n запрос, по возрастанию Δ</numerusform>
            <numerusform>%n запроса, по возрастанию Δ</numerusform>
            <numerusform>%n запросов, по возрастанию Δ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n queries, sorted by Δ, %1 per bar</source>
        <translation>
            <numerusform>%n запрос, по возрастанию Δ, %1 на столбец</numerusform>
            <numerusform>%n запроса, по возрастанию Δ, %1 на столбец</numerusform>
            <numerusform>%n запросов, по возрастанию Δ, %1 на столбец</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DeltaTableModel</name>
    <message>
        <source>Query</source>
        <translation>Запрос</translation>
    </message>
    <message>
        <source>Better</source>
        <translation>Лучше</translation>
    </message>
    <message>
        <source>nDCG@%1 of %2</source>
        <translation>nDCG@%1 прогона %2</translation>
    </message>
    <message>
        <source>nDCG of A minus nDCG of B: positive when A ranks this query better</source>
        <translation>nDCG A минус nDCG B: положительно, когда A ранжирует этот запрос лучше</translation>
    </message>
    <message>
        <source>tie</source>
        <translation>ничья</translation>
    </message>
    <message>
        <source>Same nDCG in both runs</source>
        <translation>Одинаковый nDCG в обоих прогонах</translation>
    </message>
    <message>
        <source>%1 ranks this query better</source>
        <translation>%1 ранжирует этот запрос лучше</translation>
    </message>
</context>
<context>
    <name>DisputedItemsModel</name>
    <message>
        <source>Query</source>
        <translation>Запрос</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Документ</translation>
    </message>
    <message>
        <source>Range</source>
        <translation>Размах</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>Среднее</translation>
    </message>
    <message>
        <source>Final</source>
        <translation>Итог</translation>
    </message>
    <message>
        <source>Grades</source>
        <translation>Оценки</translation>
    </message>
    <message>
        <source>Not adjudicated yet</source>
        <translation>Решения арбитра ещё нет</translation>
    </message>
    <message>
        <source>Adjudicated final grade</source>
        <translation>Итоговая оценка арбитра</translation>
    </message>
</context>
<context>
    <name>DocumentPanel</name>
    <message>
        <source>%1 · Home/End first/last · Ctrl+Z undo</source>
        <translation>%1 · Home/End первый/последний · Ctrl+Z отмена</translation>
    </message>
    <message>
        <source>QUERY %1</source>
        <translation>ЗАПРОС %1</translation>
    </message>
    <message>
        <source>Document %1 / %2</source>
        <translation>Документ %1 / %2</translation>
    </message>
    <message>
        <source>Document %1</source>
        <translation>Документ %1</translation>
    </message>
    <message>
        <source>The database has no text for this document. Import the documents (File ▸ Import…, Documents: a CSV or JSONL file of id, title and text) so that annotators read what they grade.</source>
        <translation>В базе данных нет текста этого документа. Импортируйте документы (Файл ▸ Импорт…, Документы: файл CSV или JSONL с id, заголовком и текстом), чтобы асессоры читали то, что оценивают.</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>Заметка: %1</translation>
    </message>
    <message>
        <source>Keys: 0–4 grade · ←/→ move · ⌫ clear · N note · U next unjudged</source>
        <extracomment>the digit keys and the grade each gives the keys the document panel shows as a hint (the tooltip adds the rest); translated in context &quot;DocumentPanel&quot;</extracomment>
        <translation>Клавиши: 0–4 оценка · ←/→ переход · ⌫ очистить · N заметка · U следующий неоценённый</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>Lost the connection to the database server</source>
        <extracomment>the title and the advice of each kind of error (translated in context &quot;Errors&quot; when shown)</extracomment>
        <translation>Потеряно соединение с сервером базы данных</translation>
    </message>
    <message>
        <source>Check the network connection or ask whoever runs the server whether it is up, then repeat the last action. Nothing else is lost.</source>
        <translation>Проверьте сетевое подключение или спросите того, кто обслуживает сервер, работает ли он, затем повторите последнее действие. Больше ничего не потеряно.</translation>
    </message>
    <message>
        <source>The database is busy</source>
        <translation>База данных занята</translation>
    </message>
    <message>
        <source>Wait until the other program (an import in a terminal, a second window of NDCG Studio) has finished, then repeat the last action.</source>
        <translation>Дождитесь, пока другая программа (импорт в терминале, второе окно NDCG Studio) закончит работу, затем повторите последнее действие.</translation>
    </message>
    <message>
        <source>Database from a newer version</source>
        <translation>База данных от более новой версии</translation>
    </message>
    <message>
        <source>Install the newer version of NDCG Studio, or open another database.</source>
        <translation>Установите более новую версию NDCG Studio или откройте другую базу данных.</translation>
    </message>
    <message>
        <source>Not allowed for your login</source>
        <translation>Недоступно для вашей учётной записи</translation>
    </message>
    <message>
        <source>Grade under your own annotator name (the one of your login). Adjudicating needs a lead login and imports the owner&apos;s: ask the database&apos;s owner.</source>
        <translation>Ставьте оценки под своим именем асессора (именем вашей учётной записи). Для арбитража нужна учётная запись руководителя, для импорта — владельца: обратитесь к владельцу базы данных.</translation>
    </message>
    <message>
        <source>Database problem</source>
        <translation>Проблема с базой данных</translation>
    </message>
    <message>
        <source>Check the path or the server address, then try again (File ▸ Open database…).</source>
        <translation>Проверьте путь или адрес сервера и попробуйте снова (Файл ▸ Открыть базу данных…).</translation>
    </message>
    <message>
        <source>Permission denied</source>
        <translation>Доступ запрещён</translation>
    </message>
    <message>
        <source>Choose a file or folder you may read and write, or change its permissions.</source>
        <translation>Выберите файл или папку, доступные вам для чтения и записи, или измените права доступа.</translation>
    </message>
    <message>
        <source>File not found</source>
        <translation>Файл не найден</translation>
    </message>
    <message>
        <source>Check the file name and try again.</source>
        <translation>Проверьте имя файла и попробуйте снова.</translation>
    </message>
    <message>
        <source>The file has problems</source>
        <translation>В файле есть ошибки</translation>
    </message>
    <message>
        <source>Nothing was written: the import is all or nothing. Correct the lines listed (or choose the right file kind, or a grade map for other grade scales) and import the file again.</source>
        <translation>Ничего не записано: импорт выполняется целиком или не выполняется вовсе. Исправьте перечисленные строки (или выберите правильный тип файла либо соответствие оценок для другой шкалы) и импортируйте файл снова.</translation>
    </message>
    <message>
        <source>Cannot do that</source>
        <translation>Это невозможно</translation>
    </message>
    <message>
        <source>Check the input and try again.</source>
        <translation>Проверьте введённые данные и попробуйте снова.</translation>
    </message>
    <message>
        <source>Unexpected error</source>
        <translation>Непредвиденная ошибка</translation>
    </message>
    <message>
        <source>NDCG Studio keeps running, and saved work is safe. The details are in %1; please attach that file when you report the problem.</source>
        <translation>NDCG Studio продолжает работать, сохранённые данные в безопасности. Подробности — в %1; приложите этот файл, когда будете сообщать о проблеме.</translation>
    </message>
    <message>
        <source> while %1</source>
        <translation> (действие: %1)</translation>
    </message>
    <message>
        <source>The database server stopped answering%1. Your last change was NOT saved.</source>
        <translation>Сервер базы данных перестал отвечать%1. Последнее изменение НЕ сохранено.</translation>
    </message>
    <message>
        <source>Another program is writing to the database file%1, and it stayed locked for 10 seconds. Your last change was NOT saved.</source>
        <translation>Другая программа пишет в файл базы данных%1, и он оставался заблокированным 10 секунд. Последнее изменение НЕ сохранено.</translation>
    </message>
    <message>
        <source>Something went wrong%1: %2: %3</source>
        <translation>Что-то пошло не так%1: %2: %3</translation>
    </message>
</context>
<context>
    <name>EstimatePanel</name>
    <message>
        <source>&lt;b&gt;Estimate with a machine judge&lt;/b&gt;</source>
        <translation>&lt;b&gt;Оценка с помощью машинного асессора&lt;/b&gt;</translation>
    </message>
    <message>
        <source>The machine source (kind model) whose grades are used</source>
        <translation>Машинный источник (вида model), чьи оценки используются</translation>
    </message>
    <message>
        <source>machine source:</source>
        <translation>машинный источник:</translation>
    </message>
    <message>
        <source>Estimating…</source>
        <translation>Оценивание…</translation>
    </message>
    <message>
        <source>No estimate: %1</source>
        <translation>Нет оценки: %1</translation>
    </message>
    <message>
        <source>Estimating with a machine judge</source>
        <translation>Оценка с помощью машинного асессора</translation>
    </message>
</context>
<context>
    <name>EstimateText</name>
    <message>
        <source>The machine source&apos;s mean nDCG@K over every query it graded, corrected by the humans&apos; grades on the queries they judged whole (every item the machine graded): prediction-powered inference (PPI++, Angelopoulos, Duchi &amp; Zrnic 2023). The human-judged queries are taken as a uniform sample of the queries: the interval is valid only if they were not chosen by their runs or grades. Below %1 human-judged queries no interval is given. κ: linear-weighted Cohen&apos;s kappa of the source with the humans on the items both graded. nDCG@K here: linear gain, the ideal from every judged document, whatever the scoring settings.</source>
        <translation>Среднее nDCG@K машинного источника по всем оценённым им запросам, исправленное оценками людей на запросах, которые они оценили целиком (каждый документ, оценённый машиной): вывод с опорой на предсказания (PPI++, Angelopoulos, Duchi &amp; Zrnic 2023). Запросы, оценённые людьми, считаются равномерной выборкой запросов: интервал верен, только если они выбраны независимо от их прогонов и оценок. Если запросов, оценённых людьми, меньше %1, интервал не даётся. κ: каппа Коэна с линейными весами между источником и людьми на документах, оценённых обоими. nDCG@K здесь: линейный выигрыш, идеал из всех оценённых документов, независимо от настроек подсчёта.</translation>
    </message>
    <message>
        <source>When a campaign in the ppi order drew the queries for the humans (in Compare the latest made for the pair, in Review the latest), its draw is the sample instead: each drawn query weighted by 1/π, its inclusion probability (active inference, Zrnic &amp; Candès 2024), and no estimate until every drawn query is judged whole.</source>
        <translation>Если кампания с порядком ppi отобрала запросы для людей (в «Сравнении» — последняя, созданная для этой пары, в «Обзоре» — последняя), выборкой служит её отбор: каждый отобранный запрос с весом 1/π, где π — вероятность его включения (активный вывод, Zrnic &amp; Candès 2024); оценки нет, пока каждый отобранный запрос не оценён целиком.</translation>
    </message>
    <message>
        <source>Human sample: the queries campaign %1 drew in the ppi order, each weighted by 1/π.</source>
        <translation>Выборка людей: запросы, отобранные кампанией %1 в порядке ppi, каждый с весом 1/π.</translation>
    </message>
    <message numerus="yes">
        <source>campaign %1 drew %2 query(ies) for the humans, %3 judged whole; the estimate waits for all of them</source>
        <translation>
            <numerusform>кампания %1 отобрала для людей %2 запрос, целиком оценено %3; оценка ждёт всех</numerusform>
            <numerusform>кампания %1 отобрала для людей %2 запроса, целиком оценено %3; оценка ждёт всех</numerusform>
            <numerusform>кампания %1 отобрала для людей %2 запросов, целиком оценено %3; оценка ждёт всех</numerusform>
        </translation>
    </message>
    <message>
        <source>machine source %1, κ with the humans unknown</source>
        <translation>машинный источник %1, κ с людьми неизвестна</translation>
    </message>
    <message>
        <source>machine source %1, κ %2 with the humans</source>
        <translation>машинный источник %1, κ с людьми %2</translation>
    </message>
    <message>
        <source>too few human-judged queries for the normal approximation (%1 &lt; %2)</source>
        <translation>слишком мало запросов, оценённых людьми, для нормального приближения (%1 &lt; %2)</translation>
    </message>
    <message>
        <source>no query has human grades on every item the machine source graded</source>
        <translation>ни у одного запроса нет оценок людей на всех документах, оценённых машинным источником</translation>
    </message>
    <message>
        <source>%1 vs %2: not yet decided — %3 (machine source %4)</source>
        <translation>%1 против %2: ещё не решено — %3 (машинный источник %4)</translation>
    </message>
    <message>
        <source>%1 vs %2: not yet decided — %3 (%4)</source>
        <translation>%1 против %2: ещё не решено — %3 (%4)</translation>
    </message>
    <message>
        <source>%1 better than %2</source>
        <translation>%1 лучше, чем %2</translation>
    </message>
    <message>
        <source>%1 vs %2: not yet decided</source>
        <translation>%1 против %2: ещё не решено</translation>
    </message>
    <message numerus="yes">
        <source>; human grades alone would need about %1 more query(ies) for the same width</source>
        <translation>
            <numerusform>; по одним оценкам людей для той же ширины понадобилось бы ещё около %1 запроса</numerusform>
            <numerusform>; по одним оценкам людей для той же ширины понадобилось бы ещё около %1 запросов</numerusform>
            <numerusform>; по одним оценкам людей для той же ширины понадобилось бы ещё около %1 запросов</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 — %2 % interval %3 from %4 human-judged queries and machine grades on %5%6 (%7)</source>
        <translation>
            <numerusform>%1 — %2 % интервал %3 по %4 запросу с оценками людей и машинным оценкам на %5 запросах%6 (%7)</numerusform>
            <numerusform>%1 — %2 % интервал %3 по %4 запросам с оценками людей и машинным оценкам на %5 запросах%6 (%7)</numerusform>
            <numerusform>%1 — %2 % интервал %3 по %4 запросам с оценками людей и машинным оценкам на %5 запросах%6 (%7)</numerusform>
        </translation>
    </message>
    <message>
        <source>Estimate with machine source %1: not yet decided — %2</source>
        <translation>Оценка по машинному источнику %1: ещё не решено — %2</translation>
    </message>
    <message>
        <source>Estimate with a machine judge (%1): not yet decided — %2</source>
        <translation>Оценка с помощью машинного асессора (%1): ещё не решено — %2</translation>
    </message>
    <message numerus="yes">
        <source>Estimate with a machine judge (%1), %2 % intervals from %3 human-judged queries and machine grades on %4: %5</source>
        <translation>
            <numerusform>Оценка с помощью машинного асессора (%1), %2 % интервалы по %3 запросу с оценками людей и машинным оценкам на %4 запросах: %5</numerusform>
            <numerusform>Оценка с помощью машинного асессора (%1), %2 % интервалы по %3 запросам с оценками людей и машинным оценкам на %4 запросах: %5</numerusform>
            <numerusform>Оценка с помощью машинного асессора (%1), %2 % интервалы по %3 запросам с оценками людей и машинным оценкам на %4 запросах: %5</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FetchDialog</name>
    <message>
        <source>Fetch from a search engine</source>
        <extracomment>The text of a new endpoint file: a generic JSON API (docs/live-engine.md has one per engine). Answers quoted in a failure: the first this many characters. Failures listed in the report; the rest are counted.</extracomment>
        <translation>Получение из поисковой системы</translation>
    </message>
    <message>
        <source>a new endpoint file (not saved yet)</source>
        <translation>новый файл конечной точки (ещё не сохранён)</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Выбрать…</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Сохранить</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>Сохранить &amp;как…</translation>
    </message>
    <message>
        <source>TREC topics, cran.qry or a queries TSV</source>
        <translation>темы TREC, cran.qry или TSV с запросами</translation>
    </message>
    <message>
        <source>Endpoint file:</source>
        <translation>Файл конечной точки:</translation>
    </message>
    <message>
        <source>Queries file:</source>
        <translation>Файл запросов:</translation>
    </message>
    <message>
        <source>Run name:</source>
        <translation>Имя прогона:</translation>
    </message>
    <message>
        <source>Hits per query (K):</source>
        <translation>Результатов на запрос (K):</translation>
    </message>
    <message>
        <source>Requests at once:</source>
        <translation>Запросов одновременно:</translation>
    </message>
    <message>
        <source>a query (empty: the first of the queries file)</source>
        <translation>запрос (пусто: первый из файла запросов)</translation>
    </message>
    <message>
        <source>&amp;Try one query</source>
        <translation>&amp;Проверить один запрос</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Позиция</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Документ</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Балл</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Заголовок</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Прогон</translation>
    </message>
    <message>
        <source>Fetched at (UTC)</source>
        <translation>Получено (UTC)</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>&amp;Fetch</source>
        <translation>&amp;Получить</translation>
    </message>
    <message>
        <source>Endpoint file</source>
        <translation>Файл конечной точки</translation>
    </message>
    <message>
        <source>Endpoint files (*.toml);;All files (*)</source>
        <translation>Файлы конечных точек (*.toml);;Все файлы (*)</translation>
    </message>
    <message>
        <source>Queries file</source>
        <translation>Файл запросов</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Все файлы (*)</translation>
    </message>
    <message>
        <source>Save the endpoint file</source>
        <translation>Сохранить файл конечной точки</translation>
    </message>
    <message>
        <source>The endpoint file could not be saved: %1</source>
        <translation>Не удалось сохранить файл конечной точки: %1</translation>
    </message>
    <message>
        <source>A new snapshot: the current run is kept as “%1”.</source>
        <translation>Новый снимок: текущий прогон сохранится как «%1».</translation>
    </message>
    <message>
        <source>A run imported from a file has this name: Fetch asks to replace it.</source>
        <translation>Так называется прогон, импортированный из файла: перед получением будет задан вопрос о его замене.</translation>
    </message>
    <message>
        <source>Snapshots of %1</source>
        <translation>Снимки прогона %1</translation>
    </message>
    <message>
        <source>%1 (current)</source>
        <translation>%1 (текущий)</translation>
    </message>
    <message>
        <source>Type a query, or choose the queries file to try its first.</source>
        <translation>Введите запрос или выберите файл запросов, чтобы проверить первый из них.</translation>
    </message>
    <message>
        <source>Sending one query…</source>
        <translation>Отправка одного запроса…</translation>
    </message>
    <message numerus="yes">
        <source>Query %1: %n hit(s) mapped.</source>
        <translation>
            <numerusform>Запрос %1: сопоставлен %n результат.</numerusform>
            <numerusform>Запрос %1: сопоставлено %n результата.</numerusform>
            <numerusform>Запрос %1: сопоставлено %n результатов.</numerusform>
        </translation>
    </message>
    <message>
        <source>The engine answered %1: %2</source>
        <translation>Поисковая система ответила %1: %2</translation>
    </message>
    <message>
        <source>The engine answered %1.</source>
        <translation>Поисковая система ответила %1.</translation>
    </message>
    <message>
        <source>Nothing was sent: %1</source>
        <translation>Ничего не отправлено: %1</translation>
    </message>
    <message>
        <source>A file could not be read: %1</source>
        <translation>Не удалось прочитать файл: %1</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Ошибка: %1</translation>
    </message>
    <message>
        <source>Choose the queries file and give the run a name.</source>
        <translation>Выберите файл запросов и задайте имя прогона.</translation>
    </message>
    <message>
        <source>Fetching %1…</source>
        <translation>Получение %1…</translation>
    </message>
    <message>
        <source>Cancelled. The lists fetched are kept: Fetch again sends the rest.</source>
        <translation>Отменено. Полученные списки сохранены: повторное получение отправит только остальные запросы.</translation>
    </message>
    <message>
        <source>Run exists</source>
        <translation>Прогон уже есть</translation>
    </message>
    <message>
        <source>The database holds a run named “%1” imported from a file. Replace its results with the engine&apos;s? (It is not kept as a snapshot.)</source>
        <translation>В базе есть прогон «%1», импортированный из файла. Заменить его результаты ответами поисковой системы? (Он не сохранится как снимок.)</translation>
    </message>
    <message>
        <source>&amp;Replace “%1”</source>
        <translation>&amp;Заменить «%1»</translation>
    </message>
    <message numerus="yes">
        <source>Run “%1” stored: %n ranked list(s).</source>
        <translation>
            <numerusform>Прогон «%1» сохранён: %n ранжированный список.</numerusform>
            <numerusform>Прогон «%1» сохранён: %n ранжированных списка.</numerusform>
            <numerusform>Прогон «%1» сохранён: %n ранжированных списков.</numerusform>
        </translation>
    </message>
    <message>
        <source>The earlier fetch is kept as “%1”.</source>
        <translation>Предыдущее получение сохранено как «%1».</translation>
    </message>
    <message numerus="yes">
        <source>%n request(s) failed, left out:</source>
        <translation>
            <numerusform>%n запрос не удался, пропущен:</numerusform>
            <numerusform>%n запроса не удались, пропущены:</numerusform>
            <numerusform>%n запросов не удались, пропущены:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Queries: %1; %n request(s) failed, so nothing was stored. The lists fetched are kept: Fetch again sends only the missing queries.</source>
        <translation>
            <numerusform>Запросов: %1; %n запрос не удался, поэтому ничего не сохранено. Полученные списки сохранены: повторное получение отправит только недостающие запросы.</numerusform>
            <numerusform>Запросов: %1; %n запроса не удались, поэтому ничего не сохранено. Полученные списки сохранены: повторное получение отправит только недостающие запросы.</numerusform>
            <numerusform>Запросов: %1; %n запросов не удались, поэтому ничего не сохранено. Полученные списки сохранены: повторное получение отправит только недостающие запросы.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… и ещё %n</numerusform>
            <numerusform>… и ещё %n</numerusform>
            <numerusform>… и ещё %n</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>GradeLegend</name>
    <message>
        <source>Press %1: %2</source>
        <translation>Нажмите %1: %2</translation>
    </message>
</context>
<context>
    <name>Grader</name>
    <message>
        <source>Query complete: ← → to change a grade, U for the next unjudged</source>
        <translation>Запрос завершён: ← → — изменить оценку, U — следующий неоценённый</translation>
    </message>
    <message>
        <source>Grade %1 “%2”</source>
        <translation>Оценка %1 «%2»</translation>
    </message>
    <message>
        <source>%1 · query complete (U: next unjudged)</source>
        <translation>%1 · запрос завершён (U: следующий неоценённый)</translation>
    </message>
    <message>
        <source>Clear grade “%1”</source>
        <translation>Очистить оценку «%1»</translation>
    </message>
    <message>
        <source>Grade the document first: a note belongs to a grade.</source>
        <translation>Сначала оцените документ: заметка относится к оценке.</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Заметка</translation>
    </message>
    <message>
        <source>Note on “%1”:</source>
        <translation>Заметка к «%1»:</translation>
    </message>
    <message>
        <source>Edit note “%1”</source>
        <translation>Изменить заметку «%1»</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>Сохранение…</translation>
    </message>
    <message>
        <source>Not saved</source>
        <translation>Не сохранено</translation>
    </message>
    <message>
        <source>Saving the grade</source>
        <translation>Сохранение оценки</translation>
    </message>
    <message>
        <source>Undoing</source>
        <translation>Отмена</translation>
    </message>
    <message>
        <source>Saved ✓ %1</source>
        <translation>Сохранено ✓ %1</translation>
    </message>
</context>
<context>
    <name>Grades</name>
    <message>
        <source>irrelevant</source>
        <extracomment>trec_eval&apos;s &quot;judged non-relevant&quot;: the lowest grade an imported judgment may keep (gain 0 under every gain setting; an annotator grades 0-4 only). The name of each grade an annotator gives (English; the GUI shows it translated in context &quot;Grades&quot;, the CLI as it is).</extracomment>
        <translation>нерелевантный</translation>
    </message>
    <message>
        <source>marginal</source>
        <translation>слабо релевантный</translation>
    </message>
    <message>
        <source>relevant</source>
        <translation>релевантный</translation>
    </message>
    <message>
        <source>highly relevant</source>
        <translation>очень релевантный</translation>
    </message>
    <message>
        <source>perfect</source>
        <translation>идеальный</translation>
    </message>
    <message>
        <source>Not judged</source>
        <extracomment>fill colour of each grade&apos;s chip: grey, then yellow to dark green (ColorBrewer RdYlGn / Greens) digit colour on each chip (contrast with the fill ≥ 4.5) a hollow chip for &quot;not judged&quot;</extracomment>
        <translation>Не оценено</translation>
    </message>
    <message>
        <source>Judged non-relevant (−1)</source>
        <translation>Признан нерелевантным (−1)</translation>
    </message>
</context>
<context>
    <name>HistogramChart</name>
    <message>
        <source>Distribution of nDCG</source>
        <translation>Распределение nDCG</translation>
    </message>
    <message>
        <source>nDCG@%1 (bins of 0.1, lower bound shown)</source>
        <translation>nDCG@%1 (интервалы по 0,1, показана нижняя граница)</translation>
    </message>
    <message>
        <source>queries</source>
        <translation>запросы</translation>
    </message>
</context>
<context>
    <name>HistoryModel</name>
    <message>
        <source>When (UTC)</source>
        <translation>Когда (UTC)</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Что</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Кто</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Изменение</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Заметка</translation>
    </message>
    <message>
        <source>adjudication</source>
        <translation>решение арбитра</translation>
    </message>
    <message>
        <source>grade of %1</source>
        <translation>оценка %1</translation>
    </message>
</context>
<context>
    <name>ItemGradesModel</name>
    <message>
        <source>Annotator</source>
        <translation>Асессор</translation>
    </message>
    <message>
        <source>Grade</source>
        <translation>Оценка</translation>
    </message>
    <message>
        <source>Final (adjudicated)</source>
        <translation>Итог (решение арбитра)</translation>
    </message>
</context>
<context>
    <name>JudgeDialog</name>
    <message>
        <source>Machine judge</source>
        <translation>Машинный асессор</translation>
    </message>
    <message>
        <source>Prompt of one item</source>
        <translation>Запрос для одного элемента</translation>
    </message>
    <message>
        <source>Preview to see the requests a run would make.</source>
        <translation>Нажмите «Просмотр», чтобы увидеть, сколько запросов сделает запуск.</translation>
    </message>
    <message>
        <source>&amp;Preview and estimate</source>
        <translation>&amp;Просмотр и оценка</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Запустить</translation>
    </message>
    <message>
        <source>&amp;Cancel run</source>
        <translation>&amp;Отменить запуск</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Закрыть</translation>
    </message>
    <message>
        <source>Model source</source>
        <translation>Источник-модель</translation>
    </message>
    <message>
        <source>OpenAI-compatible server</source>
        <translation>Сервер, совместимый с OpenAI</translation>
    </message>
    <message>
        <source>Local model (offline)</source>
        <translation>Локальная модель (офлайн)</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Бэкенд</translation>
    </message>
    <message>
        <source>Server URL</source>
        <translation>URL сервера</translation>
    </message>
    <message>
        <source>the model&apos;s name on the server</source>
        <translation>имя модели на сервере</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Модель</translation>
    </message>
    <message>
        <source>UMBRELA (Upadhyay et al. 2024)</source>
        <translation>UMBRELA (Upadhyay и др., 2024)</translation>
    </message>
    <message>
        <source>Thomas et al. 2023</source>
        <translation>Thomas и др., 2023</translation>
    </message>
    <message>
        <source>From a file…</source>
        <translation>Из файла…</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Шаблон</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>без ограничения</translation>
    </message>
    <message>
        <source>concurrent</source>
        <translation>одновременно</translation>
    </message>
    <message>
        <source>at most requests</source>
        <translation>не больше запросов</translation>
    </message>
    <message>
        <source>temperature</source>
        <translation>температура</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>Запросы</translation>
    </message>
    <message>
        <source>pool depth</source>
        <translation>глубина пула</translation>
    </message>
    <message>
        <source>Items: the pool of</source>
        <translation>Элементы: пул прогонов</translation>
    </message>
    <message>
        <source>Templates (*.toml);;All files (*)</source>
        <translation>Шаблоны (*.toml);;Все файлы (*)</translation>
    </message>
    <message>
        <source>Not done: %1</source>
        <translation>Не выполнено: %1</translation>
    </message>
    <message>
        <source>(nothing left to grade)</source>
        <translation>(оценивать больше нечего)</translation>
    </message>
    <message>
        <source>%1 items to grade (%2 already graded with this template and model); %3 requests, about %4 prompt + at most %5 completion tokens. Template %6.</source>
        <translation>Оценить элементов: %1 (уже оценено с этим шаблоном и моделью: %2); запросов: %3, около %4 токенов запроса + не больше %5 токенов ответа. Шаблон %6.</translation>
    </message>
    <message>
        <source>%1 of %2 items; %3 requests, %4 tokens; %5 unparsed, %6 failed; ETA %7</source>
        <translation>%1 из %2 элементов; запросов: %3, токенов: %4; не разобрано: %5, с ошибкой: %6; осталось %7</translation>
    </message>
    <message>
        <source>Cancelled: %1 answers stored; run again to continue.</source>
        <translation>Отменено: сохранено ответов: %1; запустите снова, чтобы продолжить.</translation>
    </message>
    <message>
        <source>Done: %1 graded, %2 unparsed, %3 failed; %4 requests.</source>
        <translation>Готово: оценено %1, не разобрано %2, с ошибкой %3; запросов: %4.</translation>
    </message>
    <message>
        <source>Stopped: %1</source>
        <translation>Остановлено: %1</translation>
    </message>
    <message>
        <source>Labels of more than one model: %1</source>
        <translation>Метки от нескольких моделей: %1</translation>
    </message>
</context>
<context>
    <name>JudgeEnteredDialog</name>
    <message>
        <source>Judge what entered</source>
        <translation>Оценить вошедшие</translation>
    </message>
    <message>
        <source>A campaign of the %1 documents that entered B&apos;s top K unjudged.</source>
        <translation>Кампания из документов, вошедших в топ-K прогона B без оценок (их %1).</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Название</translation>
    </message>
    <message>
        <source>names separated by spaces or commas</source>
        <translation>имена через пробел или запятую</translation>
    </message>
    <message>
        <source>Annotators</source>
        <translation>Оценщики</translation>
    </message>
</context>
<context>
    <name>JudgeMenu</name>
    <message>
        <source>&amp;Machine judge…</source>
        <translation>&amp;Машинный асессор…</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>The language changes when NDCG Studio is started again.</source>
        <extracomment>the interface languages: code and name, each in its own language (the menu shows these) the context of this module&apos;s own messages in the .ts files</extracomment>
        <translation>Язык сменится при следующем запуске NDCG Studio.</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Язык</translation>
    </message>
</context>
<context>
    <name>LazyView</name>
    <message>
        <source>Loading…</source>
        <extracomment>changes within this many milliseconds of each other cause one reload what :meth:`LazyView.save_state` saves the ``saveState()`` of</extracomment>
        <translation>Загрузка…</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Ошибка</translation>
    </message>
    <message>
        <source>Loading</source>
        <translation>Загрузка</translation>
    </message>
    <message>
        <source>No database is open.</source>
        <translation>База данных не открыта.</translation>
    </message>
</context>
<context>
    <name>LeaveOneOutModel</name>
    <message>
        <source>Annotator</source>
        <translation>Асессор</translation>
    </message>
    <message>
        <source>α without</source>
        <translation>α без</translation>
    </message>
    <message>
        <source>Δ vs all</source>
        <translation>Δ от всех</translation>
    </message>
    <message>
        <source>Items left</source>
        <translation>Осталось элементов</translation>
    </message>
    <message>
        <source>Judgments</source>
        <translation>Оценки</translation>
    </message>
    <message>
        <source>Documents still graded by two or more annotators without this one</source>
        <translation>Документы, которые и без этого асессора оценены двумя и более асессорами</translation>
    </message>
    <message>
        <source>Grades this annotator gave</source>
        <translation>Оценки, поставленные этим асессором</translation>
    </message>
    <message>
        <source>Positive Δ: agreement rises without this annotator</source>
        <translation>Положительное Δ: без этого асессора согласие растёт</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Annotate</source>
        <extracomment>the tabs, in order: (title, function building the view as ``factory(context, parent)``); the title is the English key of :meth:`MainWindow.view`, the tab shows it translated in context &quot;MainWindow&quot;</extracomment>
        <translation>Разметка</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Обзор</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>Согласие</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Сравнение</translation>
    </message>
    <message>
        <source>Stability</source>
        <translation>Устойчивость</translation>
    </message>
    <message>
        <source>&amp;Annotate</source>
        <extracomment>the view built with the window (the others: when first shown) View ▸ &lt;tab&gt; menu entries, with their mnemonics</extracomment>
        <translation>&amp;Разметка</translation>
    </message>
    <message>
        <source>&amp;Review</source>
        <translation>&amp;Обзор</translation>
    </message>
    <message>
        <source>&amp;Agreement</source>
        <translation>&amp;Согласие</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>С&amp;равнение</translation>
    </message>
    <message>
        <source>&amp;Stability</source>
        <translation>&amp;Устойчивость</translation>
    </message>
    <message>
        <source>NDCG Studio</source>
        <translation>NDCG Studio</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <extracomment>the views built so far, by title (:meth:`view` builds the others) whether the window&apos;s saved state is restored: a view built later restores its own Annotate&apos;s campaign panel (``install_campaigns`` of :mod:`~.views.campaign.panel`)</extracomment>
        <translation>&amp;Файл</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Правка</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Вид</translation>
    </message>
    <message>
        <source>&amp;Annotator</source>
        <translation>&amp;Асессор</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Справка</translation>
    </message>
    <message>
        <source>&amp;New database…</source>
        <translation>&amp;Новая база данных…</translation>
    </message>
    <message>
        <source>&amp;Open database…</source>
        <translation>&amp;Открыть базу данных…</translation>
    </message>
    <message>
        <source>Connect to &amp;server…</source>
        <translation>Подключиться к &amp;серверу…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>Н&amp;едавние</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>&amp;Импорт…</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>&amp;Экспорт…</translation>
    </message>
    <message>
        <source>&amp;Fetch from a search engine…</source>
        <translation>&amp;Получить из поисковой системы…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Выход</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Отменить</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Повторить</translation>
    </message>
    <message>
        <source>Scoring &amp;settings…</source>
        <translation>&amp;Настройки расчёта…</translation>
    </message>
    <message>
        <source>&amp;Next tab</source>
        <translation>&amp;Следующая вкладка</translation>
    </message>
    <message>
        <source>&amp;Previous tab</source>
        <translation>&amp;Предыдущая вкладка</translation>
    </message>
    <message>
        <source>&amp;Switch annotator…</source>
        <translation>&amp;Сменить асессора…</translation>
    </message>
    <message>
        <source>&amp;Pool depth…</source>
        <translation>&amp;Глубина пула…</translation>
    </message>
    <message>
        <source>Pool &amp;order</source>
        <translation>&amp;Порядок пула</translation>
    </message>
    <message>
        <source>&amp;Shuffled</source>
        <translation>&amp;Случайный</translation>
    </message>
    <message>
        <source>&amp;What decides the Compare pair first</source>
        <translation>&amp;Сначала то, что решает пару из «Сравнения»</translation>
    </message>
    <message>
        <source>Judge first the documents whose grade can change which of Compare&apos;s runs A and B is better (ab pooling); the runs are not shown in Annotate</source>
        <translation>Сначала оценивать документы, оценка которых может изменить, какой из прогонов A и B в «Сравнении» лучше (ab-пулинг); в Разметке прогоны не показываются</translation>
    </message>
    <message>
        <source>Load the Cranfield &amp;demo</source>
        <translation>Загрузить &amp;демо Cranfield</translation>
    </message>
    <message>
        <source>&amp;About NDCG Studio</source>
        <translation>&amp;О программе NDCG Studio</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(нет)</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>Очистить список</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Импорт</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Экспорт</translation>
    </message>
    <message>
        <source>Open a database first (File ▸ Open database…).</source>
        <translation>Сначала откройте базу данных (Файл ▸ Открыть базу данных…).</translation>
    </message>
    <message>
        <source>Welcome to NDCG Studio</source>
        <translation>Добро пожаловать в NDCG Studio</translation>
    </message>
    <message>
        <source>Your name as an annotator (your grades are stored under it):</source>
        <translation>Ваше имя как асессора (под ним сохраняются ваши оценки):</translation>
    </message>
    <message>
        <source>Annotator</source>
        <translation>Асессор</translation>
    </message>
    <message>
        <source>Open a database first.</source>
        <translation>Сначала откройте базу данных.</translation>
    </message>
    <message>
        <source>Switch annotator</source>
        <translation>Сменить асессора</translation>
    </message>
    <message>
        <source>Annotate as (pick or type a new name):</source>
        <translation>Размечать как (выберите или введите новое имя):</translation>
    </message>
    <message>
        <source>Fetch</source>
        <translation>Получение</translation>
    </message>
    <message>
        <source>A database file has no logins: whoever uses it can grade under any name. On a team server (File ▸ Connect to server…) each annotator is a login.</source>
        <translation>У файла базы данных нет учётных записей: любой, кто с ним работает, может ставить оценки под любым именем. На командном сервере (Файл ▸ Подключиться к серверу…) каждый асессор — это учётная запись.</translation>
    </message>
    <message>
        <source>There is no annotator called %1 yet.

Create %1 and grade as %1?</source>
        <translation>Асессора с именем %1 ещё нет.

Создать %1 и оценивать как %1?</translation>
    </message>
    <message>
        <source>Choosing the annotator</source>
        <translation>Выбор асессора</translation>
    </message>
    <message>
        <source>Pool depth</source>
        <translation>Глубина пула</translation>
    </message>
    <message>
        <source>Judge every run&apos;s top D documents of each query, D =</source>
        <translation>Оценивать первые D документов каждого прогона для каждого запроса, D =</translation>
    </message>
    <message>
        <source>Annotate pool order: shuffled</source>
        <translation>Порядок пула разметки: случайный</translation>
    </message>
    <message>
        <source>Pick runs A and B in Compare first</source>
        <translation>Сначала выберите прогоны A и B в «Сравнении»</translation>
    </message>
    <message>
        <source>About NDCG Studio</source>
        <translation>О программе NDCG Studio</translation>
    </message>
    <message>
        <source>&lt;h3&gt;NDCG Studio %1&lt;/h3&gt;&lt;p&gt;Judge search results on a 0–4 scale and score runs with NDCG@K, every part visible; inter-annotator agreement built in.&lt;/p&gt;&lt;p&gt;Logs: %2&lt;/p&gt;</source>
        <translation>&lt;h3&gt;NDCG Studio %1&lt;/h3&gt;&lt;p&gt;Оценка результатов поиска по шкале 0–4 и расчёт NDCG@K прогонов, каждая часть на виду; встроенное согласие асессоров.&lt;/p&gt;&lt;p&gt;Журналы: %2&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>MeansTableModel</name>
    <message>
        <source>Run</source>
        <translation>Прогон</translation>
    </message>
    <message>
        <source>mean nDCG@%1 under %2 (rank among the runs)</source>
        <translation>среднее nDCG@%1 по %2 (место среди прогонов)</translation>
    </message>
</context>
<context>
    <name>NoteDialog</name>
    <message>
        <source>Save the note (Ctrl+Enter)</source>
        <translation>Сохранить заметку (Ctrl+Enter)</translation>
    </message>
    <message>
        <source>Ctrl+Enter saves · Esc cancels</source>
        <translation>Ctrl+Enter — сохранить · Esc — отмена</translation>
    </message>
</context>
<context>
    <name>PairMatrix</name>
    <message>
        <source>Holm–Bonferroni over the pairs with %1</source>
        <extracomment>role returning the (row run, column run) names of a cell role returning the corrected p-value of a cell (NaN on the diagonal and unfilled cells) the smallest Δ the paired t-test detects (NaN: none can be stated); the view words it</extracomment>
        <translation>Холм–Бонферрони по парам с %1</translation>
    </message>
    <message>
        <source>randomised Tukey HSD over all %1 pairs</source>
        <translation>рандомизированный критерий Тьюки (HSD) по всем %1 парам</translation>
    </message>
    <message>
        <source>one pair: none needed</source>
        <translation>одна пара: поправка не нужна</translation>
    </message>
</context>
<context>
    <name>PairMatrixModel</name>
    <message>
        <source>%1: mean nDCG@%2 %3</source>
        <translation>%1: среднее nDCG@%2 %3</translation>
    </message>
    <message>
        <source>%1: mean nDCG@%2 %3 over %4 queries</source>
        <translation>%1: среднее nDCG@%2 %3 по %4 запросам</translation>
    </message>
    <message>
        <source>Not compared: choose no baseline, or one of these runs as the baseline</source>
        <translation>Не сравнивались: выберите без базовой линии или один из этих прогонов как базовую</translation>
    </message>
    <message>
        <source>%1 − %2: Δ = %3 (95% CI %4 to %5), effect size %6
p = %7 (paired randomization test), corrected p = %8 (%9)
Click to see the per-query deltas of this pair</source>
        <translation>%1 − %2: Δ = %3 (95% ДИ от %4 до %5), размер эффекта %6
p = %7 (парный рандомизационный тест), с поправкой p = %8 (%9)
Щёлкните, чтобы увидеть разности по запросам для этой пары</translation>
    </message>
</context>
<context>
    <name>PairsTableModel</name>
    <message>
        <source>Set A</source>
        <translation>Набор A</translation>
    </message>
    <message>
        <source>Set B</source>
        <translation>Набор B</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Прогоны</translation>
    </message>
    <message>
        <source>Order flips</source>
        <translation>Перестановки</translation>
    </message>
    <message>
        <source>Significance flips</source>
        <translation>Смена значимости</translation>
    </message>
    <message>
        <source>Run pairs whose paired randomization test says different things under the two grade sets (significant under one, not under the other, or opposite)</source>
        <translation>Пары прогонов, для которых парный рандомизационный тест даёт разное при двух наборах оценок (значимо при одном и нет при другом или наоборот по знаку)</translation>
    </message>
</context>
<context>
    <name>PairwiseKappaModel</name>
    <message>
        <source>n/a</source>
        <extracomment>more annotators than this: cells show the value only (no item count)</extracomment>
        <translation>н/д</translation>
    </message>
    <message>
        <source>undefined</source>
        <translation>не определено</translation>
    </message>
    <message>
        <source>%1 vs %2: %3 = %4 on %5 both graded</source>
        <translation>%1 и %2: %3 = %4 по %5, оценённым обоими</translation>
    </message>
</context>
<context>
    <name>PerQueryAlphaModel</name>
    <message>
        <source>Query</source>
        <translation>Запрос</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>Документы</translation>
    </message>
    <message>
        <source>Graded 2+</source>
        <translation>Оценено 2+</translation>
    </message>
    <message>
        <source>Judgments</source>
        <translation>Оценки</translation>
    </message>
    <message>
        <source>Disputed</source>
        <translation>Спорные</translation>
    </message>
</context>
<context>
    <name>PoolModel</name>
    <message>
        <source>Document</source>
        <translation>Документ</translation>
    </message>
    <message>
        <source>Grade</source>
        <translation>Оценка</translation>
    </message>
</context>
<context>
    <name>PoolPanel</name>
    <message>
        <source>Pool</source>
        <translation>Пул</translation>
    </message>
</context>
<context>
    <name>QueryDetailDialog</name>
    <message>
        <source>Query detail</source>
        <translation>Подробности запроса</translation>
    </message>
</context>
<context>
    <name>QueryDetailView</name>
    <message>
        <source>source %1</source>
        <extracomment>the run table&apos;s Title column: its index and the least width it keeps</extracomment>
        <translation>источник %1</translation>
    </message>
    <message>
        <source>nDCG@%1 by annotator: %2 — spread %3</source>
        <translation>nDCG@%1 по асессорам: %2 — разброс %3</translation>
    </message>
    <message>
        <source>⚠ disputed: the annotators&apos; grades differ by 2 or more  ·  &lt;i&gt;unjudged&lt;/i&gt;: nobody graded the document, gain 0</source>
        <translation>⚠ спорный: оценки асессоров различаются на 2 и более  ·  &lt;i&gt;не оценён&lt;/i&gt;: документ никто не оценил, выигрыш 0</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Прогон</translation>
    </message>
    <message>
        <source>Ideal list</source>
        <translation>Идеальное ранжирование</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Вычисление…</translation>
    </message>
    <message>
        <source>Query %1 · run %2</source>
        <translation>Запрос %1 · прогон %2</translation>
    </message>
    <message>
        <source>Could not compute the breakdown: %1</source>
        <translation>Не удалось вычислить разбор: %1</translation>
    </message>
    <message>
        <source>How it was computed: %1</source>
        <translation>Как вычислено: %1</translation>
    </message>
    <message>
        <source>Run %1: top %2 of nDCG@%3</source>
        <translation>Прогон %1: первые %2 для nDCG@%3</translation>
    </message>
    <message numerus="yes">
        <source>Ideal list: the %n best judged document(s)</source>
        <translation>
            <numerusform>Идеальное ранжирование: %n лучший оценённый документ</numerusform>
            <numerusform>Идеальное ранжирование: %n лучших оценённых документа</numerusform>
            <numerusform>Идеальное ранжирование: %n лучших оценённых документов</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ideal list: the run&apos;s %n best returned document(s)</source>
        <translation>
            <numerusform>Идеальное ранжирование: %n лучший документ из выдачи прогона</numerusform>
            <numerusform>Идеальное ранжирование: %n лучших документа из выдачи прогона</numerusform>
            <numerusform>Идеальное ранжирование: %n лучших документов из выдачи прогона</numerusform>
        </translation>
    </message>
    <message>
        <source>undefined (the query has no judgments)</source>
        <translation>не определён (у запроса нет оценок)</translation>
    </message>
    <message>
        <source>0 (IDCG = 0: no judged document has a gain)</source>
        <translation>0 (IDCG = 0: ни у одного оценённого документа нет выигрыша)</translation>
    </message>
    <message>
        <source>Query detail</source>
        <translation>Подробности запроса</translation>
    </message>
    <message>
        <source>Double-click a row of the Review table to see its breakdown.</source>
        <translation>Дважды щёлкните строку таблицы «Обзор», чтобы увидеть её разбор.</translation>
    </message>
</context>
<context>
    <name>QueryListPanel</name>
    <message>
        <source>Queries</source>
        <extracomment>milliseconds of typing in the filter coalesced into one filtering of the list</extracomment>
        <translation>Запросы</translation>
    </message>
    <message>
        <source>Filter by id or text…</source>
        <translation>Фильтр по id или тексту…</translation>
    </message>
    <message>
        <source>Hide complete queries</source>
        <translation>Скрыть завершённые запросы</translation>
    </message>
    <message>
        <source>Next unjudged</source>
        <translation>Следующий неоценённый</translation>
    </message>
    <message>
        <source>Go to the next document you have not judged (U, Ctrl+U)</source>
        <translation>Перейти к следующему документу, который вы ещё не оценили (U, Ctrl+U)</translation>
    </message>
</context>
<context>
    <name>QueryProgressModel</name>
    <message>
        <source>Query</source>
        <translation>Запрос</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>Текст</translation>
    </message>
    <message>
        <source>Judged</source>
        <translation>Оценено</translation>
    </message>
    <message>
        <source>Pooled documents you have judged / pool size</source>
        <extracomment>(judged, pool size) of the row, for the progress delegate</extracomment>
        <translation>Оценённые вами документы пула / размер пула</translation>
    </message>
    <message>
        <source>Counting the pool…</source>
        <translation>Подсчёт пула…</translation>
    </message>
    <message>
        <source>No run returned documents for this query: nothing to judge</source>
        <translation>Ни один прогон не вернул документов по этому запросу: оценивать нечего</translation>
    </message>
    <message>
        <source>%1 of %2 pooled documents judged</source>
        <translation>оценено %1 из %2 документов пула</translation>
    </message>
</context>
<context>
    <name>ReviewFilterBar</name>
    <message>
        <source>Score against one judgment source&apos;s grades only: its annotators&apos; grades combined by the consensus rule, no adjudication (like `score --source`); &apos;humans&apos; are the annotators of no source. All sources: the usual consensus of every annotator.</source>
        <extracomment>the source filter&apos;s tooltip: what choosing a source means</extracomment>
        <translation>Расчёт только по оценкам одного источника: оценки его асессоров объединяются правилом согласования, без решений арбитра (как `score --source`); «humans» — асессоры без источника. Все источники: обычное согласование всех асессоров.</translation>
    </message>
    <message>
        <source>Filter by query id or text…</source>
        <translation>Фильтр по id или тексту запроса…</translation>
    </message>
    <message>
        <source>All runs</source>
        <translation>Все прогоны</translation>
    </message>
    <message>
        <source>All bands</source>
        <translation>Все уровни</translation>
    </message>
    <message>
        <source>No band (no judgments)</source>
        <translation>Без уровня (нет оценок)</translation>
    </message>
    <message>
        <source>All sources</source>
        <translation>Все источники</translation>
    </message>
    <message>
        <source>Disputed only</source>
        <translation>Только спорные</translation>
    </message>
    <message>
        <source>Queries with a document whose grades differ by 2 or more</source>
        <translation>Запросы с документом, оценки которого расходятся на 2 и больше</translation>
    </message>
    <message>
        <source>Judged@K below</source>
        <translation>Оценено@K ниже</translation>
    </message>
    <message>
        <source>Source: %1</source>
        <translation>Источник: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 row(s)</source>
        <translation>
            <numerusform>%1 из %2 строки</numerusform>
            <numerusform>%1 из %2 строк</numerusform>
            <numerusform>%1 из %2 строк</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 row(s)</source>
        <translation>
            <numerusform>%1 строка</numerusform>
            <numerusform>%1 строки</numerusform>
            <numerusform>%1 строк</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReviewText</name>
    <message numerus="yes">
        <source>Nothing to score yet: %1 judgment(s), but no run.
Import a run (File ▸ Import… ▸ A run) to score it.</source>
        <translation>
            <numerusform>Пока нечего рассчитывать: есть %1 оценка, но нет прогона.
Импортируйте прогон (Файл ▸ Импорт… ▸ Прогон), чтобы рассчитать его.</numerusform>
            <numerusform>Пока нечего рассчитывать: есть %1 оценки, но нет прогона.
Импортируйте прогон (Файл ▸ Импорт… ▸ Прогон), чтобы рассчитать его.</numerusform>
            <numerusform>Пока нечего рассчитывать: есть %1 оценок, но нет прогона.
Импортируйте прогон (Файл ▸ Импорт… ▸ Прогон), чтобы рассчитать его.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Nothing to score yet: %1 run(s), but no judgments.
Judge documents in Annotate, or import judgments (File ▸ Import…).</source>
        <translation>
            <numerusform>Пока нечего рассчитывать: есть %1 прогон, но нет оценок.
Оцените документы в Разметке или импортируйте оценки (Файл ▸ Импорт…).</numerusform>
            <numerusform>Пока нечего рассчитывать: есть %1 прогона, но нет оценок.
Оцените документы в Разметке или импортируйте оценки (Файл ▸ Импорт…).</numerusform>
            <numerusform>Пока нечего рассчитывать: есть %1 прогонов, но нет оценок.
Оцените документы в Разметке или импортируйте оценки (Файл ▸ Импорт…).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReviewView</name>
    <message>
        <source>Scoring…</source>
        <translation>Расчёт…</translation>
    </message>
    <message>
        <source>Scoring failed</source>
        <translation>Ошибка расчёта</translation>
    </message>
    <message>
        <source>Scoring the runs</source>
        <translation>Расчёт прогонов</translation>
    </message>
    <message>
        <source>Intervals and agreement…</source>
        <translation>Интервалы и согласие…</translation>
    </message>
    <message>
        <source>No database is open.
Use File ▸ Open database… or start with the demo.</source>
        <translation>База данных не открыта.
Выберите Файл ▸ Открыть базу данных… или начните с демо.</translation>
    </message>
    <message>
        <source>Scoring settings…</source>
        <translation>Настройки расчёта…</translation>
    </message>
    <message>
        <source>Bands</source>
        <translation>Уровни</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>Распределение</translation>
    </message>
    <message>
        <source>Double-click or press Enter for the per-rank breakdown</source>
        <translation>Двойной щелчок или Enter — разбор по позициям</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>Баллы</translation>
    </message>
    <message>
        <source>nDCG vs nDCG′ (unjudged documents)</source>
        <translation>nDCG и nDCG′ (неоценённые документы)</translation>
    </message>
    <message>
        <source>No estimate: %1</source>
        <translation>Нет оценки: %1</translation>
    </message>
    <message>
        <source>%1 · grades of source %2 only</source>
        <translation>%1 · только оценки источника %2</translation>
    </message>
    <message>
        <source>%1 without judgments (no nDCG)</source>
        <translation>без оценок (нет nDCG): %1</translation>
    </message>
    <message>
        <source>%1 not returned (scored 0)</source>
        <translation>не возвращено (0 баллов): %1</translation>
    </message>
    <message>
        <source>%1 with IDCG = 0</source>
        <translation>с IDCG = 0: %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>Every query has judgments and a result in every run.</source>
        <translation>У каждого запроса есть оценки и результат в каждом прогоне.</translation>
    </message>
    <message>
        <source>%1.</source>
        <translation>%1.</translation>
    </message>
    <message>
        <source>; </source>
        <translation>; </translation>
    </message>
    <message>
        <source>Query %1 · %2 — Query detail</source>
        <translation>Запрос %1 · %2 — Подробности запроса</translation>
    </message>
    <message>
        <source>Nothing to score yet: no query has both results in a run and judgments.
Judge the runs&apos; documents in Annotate, or import judgments for their queries.</source>
        <translation>Пока нечего рассчитывать: ни у одного запроса нет одновременно результатов прогона и оценок.
Оцените документы прогонов в Разметке или импортируйте оценки для их запросов.</translation>
    </message>
    <message>
        <source>Nothing to score yet: no run and no judgments.
Import a run and judgments (File ▸ Import…), or judge a few documents in Annotate.</source>
        <translation>Пока нечего рассчитывать: нет ни прогона, ни оценок.
Импортируйте прогон и оценки (Файл ▸ Импорт…) или оцените несколько документов в Разметке.</translation>
    </message>
    <message>
        <source>Nothing to score yet.
Import a run and judgments (File ▸ Import…), or judge a few documents in Annotate.</source>
        <translation>Пока нечего рассчитывать.
Импортируйте прогон и оценки (Файл ▸ Импорт…) или оцените несколько документов в Разметке.</translation>
    </message>
</context>
<context>
    <name>RunNameDialog</name>
    <message>
        <source>Run exists</source>
        <translation>Прогон уже есть</translation>
    </message>
    <message>
        <source>The database holds a run named “%1” already. Import %2 as a new run under another name, or replace that run&apos;s results with this file&apos;s?</source>
        <translation>В базе уже есть прогон «%1». Импортировать %2 как новый прогон под другим именем или заменить результаты того прогона результатами этого файла?</translation>
    </message>
    <message>
        <source>Name of the new run:</source>
        <translation>Имя нового прогона:</translation>
    </message>
    <message>
        <source>Import as &amp;new run</source>
        <translation>Импортировать как &amp;новый прогон</translation>
    </message>
    <message>
        <source>&amp;Replace “%1”</source>
        <translation>&amp;Заменить «%1»</translation>
    </message>
</context>
<context>
    <name>RunSummaryModel</name>
    <message>
        <source>Run</source>
        <translation>Прогон</translation>
    </message>
    <message>
        <source>Mean nDCG</source>
        <translation>Среднее nDCG</translation>
    </message>
    <message>
        <source>95% CI</source>
        <translation>95% ДИ</translation>
    </message>
    <message>
        <source>Queries</source>
        <translation>Запросы</translation>
    </message>
    <message>
        <source>Unjudged</source>
        <translation>Без оценок</translation>
    </message>
    <message>
        <source>Not returned</source>
        <translation>Нет в выдаче</translation>
    </message>
    <message>
        <source>Mean nDCG@%1</source>
        <translation>Ср. nDCG@%1</translation>
    </message>
    <message>
        <source>95% percentile bootstrap interval of the mean (queries resampled 10,000 times)</source>
        <translation>95% перцентильный бутстреп-интервал среднего (запросы пересэмплированы 10 000 раз)</translation>
    </message>
    <message>
        <source>Queries with judgments: the ones the mean covers</source>
        <translation>Запросы с оценками: те, по которым считается среднее</translation>
    </message>
    <message>
        <source>Queries without any judgment: no nDCG, left out of the mean</source>
        <translation>Запросы без единой оценки: nDCG нет, в среднее не входят</translation>
    </message>
    <message>
        <source>Judged queries the run returned nothing for: they score 0</source>
        <translation>Оценённые запросы, по которым прогон ничего не вернул: балл 0</translation>
    </message>
    <message>
        <source>Mean over %1 judged queries; interval being computed…</source>
        <translation>Среднее по %1 оценённым запросам; интервал вычисляется…</translation>
    </message>
    <message>
        <source>Mean over %1 judged queries; 95% interval [%2, %3]</source>
        <translation>Среднее по %1 оценённым запросам; 95% интервал [%2, %3]</translation>
    </message>
</context>
<context>
    <name>ScoresTableModel</name>
    <message>
        <source>Query</source>
        <extracomment>judged@K below this counts as low coverage by default</extracomment>
        <translation>Запрос</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Прогон</translation>
    </message>
    <message>
        <source>Band</source>
        <translation>Уровень</translation>
    </message>
    <message>
        <source>Judged@%1</source>
        <translation>Оценено@%1</translation>
    </message>
    <message>
        <source>Annotators</source>
        <translation>Асессоры</translation>
    </message>
    <message>
        <source>α (query)</source>
        <translation>α (запрос)</translation>
    </message>
    <message>
        <source>Disputed</source>
        <translation>Спорные</translation>
    </message>
    <message>
        <source>Query text</source>
        <translation>Текст запроса</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>Разброс</translation>
    </message>
    <message>
        <source>DCG@K / IDCG@K; empty when the query has no judgments</source>
        <translation>DCG@K / IDCG@K; пусто, если у запроса нет оценок</translation>
    </message>
    <message>
        <source>Quality band of nDCG (thresholds in Scoring settings)</source>
        <translation>Уровень качества nDCG (пороги — в настройках расчёта)</translation>
    </message>
    <message>
        <source>Discounted cumulative gain of the run&apos;s top K (gain units)</source>
        <translation>Дисконтированный накопленный выигрыш первых K результатов прогона (единицы выигрыша)</translation>
    </message>
    <message>
        <source>DCG of the ideal ordering of the judged documents, top K (gain units)</source>
        <translation>DCG идеального ранжирования оценённых документов, первые K (единицы выигрыша)</translation>
    </message>
    <message>
        <source>Share of the run&apos;s top K documents that have a judgment</source>
        <translation>Доля первых K документов прогона, у которых есть оценка</translation>
    </message>
    <message>
        <source>Annotators who judged this query</source>
        <translation>Асессоры, оценившие этот запрос</translation>
    </message>
    <message>
        <source>Krippendorff&apos;s alpha over this query&apos;s documents; empty when undefined</source>
        <translation>α Криппендорфа по документам этого запроса; пусто, если не определена</translation>
    </message>
    <message>
        <source>Documents whose annotators&apos; grades differ by 2 or more</source>
        <translation>Документы, оценки асессоров которых расходятся на 2 и больше</translation>
    </message>
    <message>
        <source>Max − min of nDCG@K under each annotator&apos;s own grades and each source&apos;s: the queries whose score depends most on who judged</source>
        <translation>Максимум − минимум nDCG@K по собственным оценкам каждого асессора и каждого источника: запросы, балл которых больше всего зависит от того, кто оценивал</translation>
    </message>
    <message>
        <source>No judgments for this query: nDCG is undefined and left out of means.</source>
        <translation>У этого запроса нет оценок: nDCG не определён и в средние не входит.</translation>
    </message>
    <message>
        <source>IDCG = 0 (no judged document has a gain): nDCG reported as 0.</source>
        <translation>IDCG = 0 (ни у одного оценённого документа нет выигрыша): nDCG записан как 0.</translation>
    </message>
    <message>
        <source>nDCG@%1 = DCG %2 / IDCG %3 = %4
Double-click for the per-rank breakdown.</source>
        <translation>nDCG@%1 = DCG %2 / IDCG %3 = %4
Двойной щелчок — разбор по позициям.</translation>
    </message>
    <message>
        <source>The run returned no document for this query.</source>
        <translation>Прогон не вернул по этому запросу ни одного документа.</translation>
    </message>
    <message>
        <source>%1 of the top %2 documents are judged</source>
        <translation>Оценено %1 из первых %2 документов</translation>
    </message>
    <message>
        <source>Undefined: fewer than two annotators graded the same documents of this query.</source>
        <translation>Не определена: одни и те же документы этого запроса оценили меньше двух асессоров.</translation>
    </message>
</context>
<context>
    <name>ScoringSettings</name>
    <message>
        <source>Linear: gain = grade</source>
        <extracomment>settings keys whose change requires rescoring a typed number applies this long after the last keystroke</extracomment>
        <translation>Линейный: выигрыш = оценка</translation>
    </message>
    <message>
        <source>Exponential: gain = 2^grade − 1</source>
        <translation>Экспоненциальный: выигрыш = 2^оценка − 1</translation>
    </message>
    <message>
        <source>All judged documents of the query (trec_eval)</source>
        <translation>Все оценённые документы запроса (trec_eval)</translation>
    </message>
    <message>
        <source>Only the documents the run returned (scikit-learn)</source>
        <translation>Только документы из выдачи прогона (scikit-learn)</translation>
    </message>
    <message>
        <source>Mean of the annotators&apos; grades</source>
        <translation>Среднее оценок асессоров</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>Медиана</translation>
    </message>
    <message>
        <source>Majority (most frequent grade)</source>
        <translation>Большинство (самая частая оценка)</translation>
    </message>
    <message>
        <source>Maximum (most lenient)</source>
        <translation>Максимум (самая мягкая)</translation>
    </message>
    <message>
        <source>Minimum (strictest)</source>
        <translation>Минимум (самая строгая)</translation>
    </message>
    <message>
        <source>mean</source>
        <extracomment>the consensus methods&apos; short names in the sentences below (the CLI&apos;s words in English)</extracomment>
        <translation>среднее</translation>
    </message>
    <message>
        <source>median</source>
        <translation>медиана</translation>
    </message>
    <message>
        <source>majority</source>
        <translation>большинство</translation>
    </message>
    <message>
        <source>max</source>
        <translation>максимум</translation>
    </message>
    <message>
        <source>min</source>
        <translation>минимум</translation>
    </message>
    <message>
        <source>gain = grade</source>
        <translation>выигрыш = оценка</translation>
    </message>
    <message>
        <source>gain = 2^grade − 1</source>
        <translation>выигрыш = 2^оценка − 1</translation>
    </message>
    <message>
        <source>IDCG from all judged documents of the query</source>
        <translation>IDCG по всем оценённым документам запроса</translation>
    </message>
    <message>
        <source>IDCG from the documents the run returned</source>
        <translation>IDCG по документам из выдачи прогона</translation>
    </message>
    <message>
        <source>run order by score descending, ties by document id descending (trec_eval)</source>
        <translation>порядок прогона: по убыванию балла, при равенстве — по убыванию id документа (trec_eval)</translation>
    </message>
    <message>
        <source>run order by the file&apos;s rank column</source>
        <translation>порядок прогона по столбцу rank файла</translation>
    </message>
    <message>
        <source>grades of %1 only</source>
        <translation>только оценки %1</translation>
    </message>
    <message>
        <source>%1 of the annotators&apos; grades (adjudicated grades win)</source>
        <translation>%1 оценок асессоров (решения арбитра приоритетны)</translation>
    </message>
    <message>
        <source>nDCG@%1 = DCG@%1 / IDCG@%1; %2; discount 1/log2(rank + 1); %3; %4; one grade per document: %5; unjudged documents gain 0.</source>
        <translation>nDCG@%1 = DCG@%1 / IDCG@%1; %2; дисконт 1/log2(позиция + 1); %3; %4; одна оценка на документ: %5; выигрыш неоценённых документов 0.</translation>
    </message>
    <message>
        <source>linear gain (grade)</source>
        <translation>линейный выигрыш (оценка)</translation>
    </message>
    <message>
        <source>exponential gain (2^grade − 1)</source>
        <translation>экспоненциальный выигрыш (2^оценка − 1)</translation>
    </message>
    <message>
        <source>ideal from all judged documents</source>
        <translation>идеал по всем оценённым документам</translation>
    </message>
    <message>
        <source>ideal from the list</source>
        <translation>идеал по списку</translation>
    </message>
    <message>
        <source>consensus: %1</source>
        <translation>согласование: %1</translation>
    </message>
    <message>
        <source>order: score, ties by document id</source>
        <translation>порядок: по баллу, при равенстве — по id документа</translation>
    </message>
    <message>
        <source>order: rank column</source>
        <translation>порядок: столбец rank</translation>
    </message>
</context>
<context>
    <name>ScoringSettingsDialog</name>
    <message>
        <source>Scoring settings</source>
        <translation>Настройки расчёта</translation>
    </message>
    <message>
        <source>Changes apply at once; the views rescore in the background.</source>
        <translation>Изменения применяются сразу; представления пересчитываются в фоне.</translation>
    </message>
</context>
<context>
    <name>ScoringSettingsPanel</name>
    <message>
        <source>Cutoff K: ranks 1..K count</source>
        <translation>Порог K: учитываются позиции 1..K</translation>
    </message>
    <message>
        <source>Annotators judge the union of every run&apos;s top D documents</source>
        <translation>Асессоры оценивают объединение первых D документов каждого прогона</translation>
    </message>
    <message>
        <source>nDCG</source>
        <translation>nDCG</translation>
    </message>
    <message>
        <source>Cutoff &amp;K:</source>
        <translation>Порог &amp;K:</translation>
    </message>
    <message>
        <source>&amp;Gain:</source>
        <translation>&amp;Выигрыш:</translation>
    </message>
    <message>
        <source>&amp;Ideal list:</source>
        <translation>&amp;Идеальное ранжирование:</translation>
    </message>
    <message>
        <source>&amp;Consensus:</source>
        <translation>&amp;Согласование:</translation>
    </message>
    <message>
        <source>Judging pool</source>
        <translation>Пул для оценки</translation>
    </message>
    <message>
        <source>Pool &amp;depth D:</source>
        <translation>&amp;Глубина пула D:</translation>
    </message>
    <message>
        <source>Quality bands (lower bound of nDCG)</source>
        <translation>Уровни качества (нижняя граница nDCG)</translation>
    </message>
    <message>
        <source>%1 ≥</source>
        <translation>%1 ≥</translation>
    </message>
    <message>
        <source>⚠ Thresholds must decrease strictly: excellent &gt; good &gt; fair &gt; poor. Not applied.</source>
        <translation>⚠ Пороги должны строго убывать: отлично &gt; хорошо &gt; удовлетворительно &gt; плохо. Не применено.</translation>
    </message>
</context>
<context>
    <name>StabilityView</name>
    <message>
        <source>each annotator</source>
        <translation>каждого асессора</translation>
    </message>
    <message>
        <source>each judgment source</source>
        <translation>каждого источника оценок</translation>
    </message>
    <message>
        <source>each consensus rule</source>
        <translation>каждого правила согласования</translation>
    </message>
    <message>
        <source>Scoring under every grade set…</source>
        <translation>Расчёт по каждому набору оценок…</translation>
    </message>
    <message>
        <source>Computing the ranking stability</source>
        <translation>Расчёт устойчивости ранжирования</translation>
    </message>
    <message>
        <source>The grade sets whose run orders are compared</source>
        <translation>Наборы оценок, порядки прогонов по которым сравниваются</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>An annotator takes part when they graded at least this share of every run&apos;s top K</source>
        <translation>Асессор участвует, если оценил не меньше этой доли первых K документов каждого прогона</translation>
    </message>
    <message>
        <source>min. coverage</source>
        <translation>мин. покрытие</translation>
    </message>
    <message>
        <source>Run order under</source>
        <translation>Порядок прогонов по оценкам</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Прогоны</translation>
    </message>
    <message>
        <source>vs</source>
        <translation>и</translation>
    </message>
    <message>
        <source>Kendall&apos;s τ-b (above the diagonal) and τ_AP (below)</source>
        <translation>τ-b Кендалла (над диагональю) и τ_AP (под ней)</translation>
    </message>
    <message>
        <source>Mean nDCG@K of each run (its rank)</source>
        <translation>Среднее nDCG@K каждого прогона (его место)</translation>
    </message>
    <message>
        <source>Every two grade sets: flips</source>
        <translation>Каждые два набора оценок: перестановки</translation>
    </message>
    <message>
        <source>Ranking stability needs two runs: import another run (File ▸ Import…).</source>
        <translation>Для устойчивости ранжирования нужны два прогона: импортируйте ещё один (Файл ▸ Импорт…).</translation>
    </message>
    <message>
        <source>annotators below %1 coverage of every run&apos;s top %2 left out: %3</source>
        <translation>не учтены асессоры с покрытием первых %2 результатов каждого прогона ниже %1: %3</translation>
    </message>
    <message numerus="yes">
        <source>%n grade set(s): nothing to compare.</source>
        <translation>
            <numerusform>%n набор оценок: сравнивать нечего.</numerusform>
            <numerusform>%n набора оценок: сравнивать нечего.</numerusform>
            <numerusform>%n наборов оценок: сравнивать нечего.</numerusform>
        </translation>
    </message>
    <message>
        <source>Pick two different runs.</source>
        <translation>Выберите два разных прогона.</translation>
    </message>
    <message>
        <source>No grade set to compare under.</source>
        <translation>Нет набора оценок для сравнения.</translation>
    </message>
    <message>
        <source>the significance flips</source>
        <translation>значимость меняется</translation>
    </message>
    <message>
        <source>%1 better than %2 under %3 of %4 grade sets</source>
        <translation>%1 лучше, чем %2, по %3 из %4 наборов оценок</translation>
    </message>
    <message>
        <source>; flips under %1</source>
        <translation>; меняется местами по %1</translation>
    </message>
    <message>
        <source>; never flips</source>
        <translation>; никогда не меняется местами</translation>
    </message>
    <message>
        <source>; tied under %1</source>
        <translation>; ничья по %1</translation>
    </message>
    <message>
        <source>the %1 consensus</source>
        <translation>согласованию «%1»</translation>
    </message>
    <message>
        <source>%1&apos; grades</source>
        <translation>оценкам %1</translation>
    </message>
    <message>
        <source>%1&apos;s grades</source>
        <translation>оценкам %1</translation>
    </message>
    <message>
        <source> and </source>
        <translation> и </translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 и %2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; vs &lt;b&gt;%2&lt;/b&gt;: Cohen&apos;s κ (linear) %3, Krippendorff&apos;s α (ordinal) %4&lt;br&gt;%5 items, %6 two grades or more apart (Agreement tab: disputed list)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; и &lt;b&gt;%2&lt;/b&gt;: κ Коэна (линейная) %3, α Криппендорфа (порядковая) %4&lt;br&gt;элементов: %5, различаются на две оценки и более: %6 (вкладка «Согласие»: спорные)</translation>
    </message>
    <message>
        <source>Labels of more than one model or template: %1</source>
        <translation>Метки от нескольких моделей или шаблонов: %1</translation>
    </message>
    <message>
        <source>Label agreement between sources</source>
        <translation>Согласие оценок между источниками</translation>
    </message>
    <message>
        <source>Cohen&apos;s κ unweighted %1, quadratic %2; %3&apos;s precision/recall per grade against %4: %5</source>
        <translation>κ Коэна без весов %1, квадратичный %2; точность/полнота %3 по оценкам относительно %4: %5</translation>
    </message>
</context>
<context>
    <name>StatusBar</name>
    <message>
        <source>NDCG Studio</source>
        <extracomment>after another database opens, the counts (a scan of its results and judgments) wait this long: they are not on the way to the current tab&apos;s first rows (``bench_gui_scale.py``)</extracomment>
        <translation>NDCG Studio</translation>
    </message>
    <message>
        <source>No database</source>
        <translation>Нет базы данных</translation>
    </message>
    <message>
        <source>%1 — NDCG Studio</source>
        <translation>%1 — NDCG Studio</translation>
    </message>
    <message>
        <source>Database: %1</source>
        <translation>База данных: %1</translation>
    </message>
    <message>
        <source>Annotator: %1</source>
        <translation>Асессор: %1</translation>
    </message>
    <message>
        <source>No annotator</source>
        <translation>Нет асессора</translation>
    </message>
    <message>
        <source>counts unavailable</source>
        <translation>счётчики недоступны</translation>
    </message>
    <message>
        <source>The database answers again.</source>
        <translation>База данных снова отвечает.</translation>
    </message>
    <message>
        <source>⚠ The database is not answering; retrying every few seconds…</source>
        <translation>⚠ База данных не отвечает; повтор каждые несколько секунд…</translation>
    </message>
</context>
<context>
    <name>Task</name>
    <message>
        <source>Working…</source>
        <extracomment>a task still running after this many milliseconds shows its progress dialog a delivered task whose worker still holds its signals is looked at again after this long delivered tasks, released (their last reference dropped) by :func:`_release_delivered`</extracomment>
        <translation>Выполняется…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Отмена</translation>
    </message>
    <message>
        <source>NDCG Studio</source>
        <translation>NDCG Studio</translation>
    </message>
    <message>
        <source>About %1 s left</source>
        <translation>Осталось около %1 с</translation>
    </message>
    <message>
        <source>About %1 min left</source>
        <translation>Осталось около %1 мин</translation>
    </message>
    <message>
        <source>About %1 h left</source>
        <translation>Осталось около %1 ч</translation>
    </message>
</context>
<context>
    <name>TauMatrixModel</name>
    <message>
        <source>Kendall&apos;s τ-b above the diagonal, τ_AP (top-weighted) below</source>
        <translation>τ-b Кендалла выше диагонали, τ_AP (с весом верхних позиций) ниже</translation>
    </message>
    <message>
        <source>same grade set</source>
        <translation>тот же набор оценок</translation>
    </message>
    <message>
        <source>%1 vs %2: %3</source>
        <translation>%1 и %2: %3</translation>
    </message>
</context>
<context>
    <name>TeamText</name>
    <message numerus="yes">
        <source>%1: %n judgment(s)</source>
        <extracomment>how often the database is asked for changes the last team line read: the next reads only the history written since</extracomment>
        <translation>
            <numerusform>%1: %n оценка</numerusform>
            <numerusform>%1: %n оценки</numerusform>
            <numerusform>%1: %n оценок</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TeamWatcher</name>
    <message>
        <source>, last change %1 UTC</source>
        <translation>, последнее изменение %1 UTC</translation>
    </message>
    <message>
        <source>Team: %1</source>
        <translation>Команда: %1</translation>
    </message>
</context>
<context>
    <name>Theme</name>
    <message>
        <source>&amp;System</source>
        <extracomment>the themes: code and menu text (translated where shown, context &quot;Theme&quot;)</extracomment>
        <translation>&amp;Системная</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>&amp;Светлая</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>&amp;Тёмная</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Тема</translation>
    </message>
</context>
<context>
    <name>Transfer</name>
    <message>
        <source>A run (TREC run file)</source>
        <extracomment>shows a one-line result for some milliseconds (``MainWindow.show_message``) the context of this module&apos;s messages import kinds: (label, file-dialog filter), both translated in context &quot;Transfer&quot;</extracomment>
        <translation>Прогон (файл TREC run)</translation>
    </message>
    <message>
        <source>TREC run (*.txt *.run *.trec);;All files (*)</source>
        <translation>TREC run (*.txt *.run *.trec);;Все файлы (*)</translation>
    </message>
    <message>
        <source>Judgments as TREC qrels</source>
        <translation>Оценки в формате TREC qrels</translation>
    </message>
    <message>
        <source>TREC qrels (*.txt *.qrels);;All files (*)</source>
        <translation>TREC qrels (*.txt *.qrels);;Все файлы (*)</translation>
    </message>
    <message>
        <source>Judgments as CSV</source>
        <translation>Оценки в формате CSV</translation>
    </message>
    <message>
        <source>CSV (*.csv);;All files (*)</source>
        <translation>CSV (*.csv);;Все файлы (*)</translation>
    </message>
    <message>
        <source>Queries (TSV, CSV)</source>
        <translation>Запросы (TSV, CSV)</translation>
    </message>
    <message>
        <source>Queries (*.tsv *.csv *.txt);;All files (*)</source>
        <translation>Запросы (*.tsv *.csv *.txt);;Все файлы (*)</translation>
    </message>
    <message>
        <source>Documents (CSV, JSONL)</source>
        <translation>Документы (CSV, JSONL)</translation>
    </message>
    <message>
        <source>Documents (*.csv *.jsonl);;All files (*)</source>
        <translation>Документы (*.csv *.jsonl);;Все файлы (*)</translation>
    </message>
    <message>
        <source>A SMART collection file (Cranfield)</source>
        <translation>Файл коллекции SMART (Cranfield)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Все файлы (*)</translation>
    </message>
    <message>
        <source>TREC topics (title, description, narrative)</source>
        <translation>Темы TREC (заголовок, описание, пояснение)</translation>
    </message>
    <message>
        <source>TREC topics (*.txt *.xml *.topics);;All files (*)</source>
        <translation>Темы TREC (*.txt *.xml *.topics);;Все файлы (*)</translation>
    </message>
    <message>
        <source>NDCG report (CSV)</source>
        <extracomment>export kinds and their labels (translated in context &quot;Transfer&quot;)</extracomment>
        <translation>Отчёт NDCG (CSV)</translation>
    </message>
    <message>
        <source>Judgments (CSV)</source>
        <translation>Оценки (CSV)</translation>
    </message>
    <message>
        <source>Consensus qrels (TREC)</source>
        <translation>Согласованные qrels (TREC)</translation>
    </message>
    <message>
        <source>Agreement (CSV)</source>
        <translation>Согласие (CSV)</translation>
    </message>
    <message>
        <source>Run comparison (CSV)</source>
        <translation>Сравнение прогонов (CSV)</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Импорт</translation>
    </message>
    <message>
        <source>What does the file hold?</source>
        <translation>Что содержит файл?</translation>
    </message>
    <message>
        <source>Import %1</source>
        <translation>Импорт: %1</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>Импорт %1…</translation>
    </message>
    <message>
        <source>Annotators (no judgment source)</source>
        <extracomment>Who made the judgments of an imported file: no source (a human annotator), or a source kind (labels translated in context &quot;Transfer&quot;).</extracomment>
        <translation>Асессоры (без источника оценок)</translation>
    </message>
    <message>
        <source>A vendor&apos;s judgments</source>
        <translation>Оценки подрядчика</translation>
    </message>
    <message>
        <source>A model&apos;s (LLM) judgments</source>
        <translation>Оценки модели (LLM)</translation>
    </message>
    <message>
        <source>A team of human assessors</source>
        <translation>Команда асессоров-людей</translation>
    </message>
    <message>
        <source>Whose judgments are these?</source>
        <translation>Чьи это оценки?</translation>
    </message>
    <message>
        <source>Name of the judgment source:</source>
        <translation>Название источника оценок:</translation>
    </message>
    <message>
        <source>Annotator whose grades these are:</source>
        <translation>Асессор, чьи это оценки:</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Экспорт</translation>
    </message>
    <message>
        <source>What to export?</source>
        <translation>Что экспортировать?</translation>
    </message>
    <message>
        <source>TREC qrels (*.txt)</source>
        <translation>TREC qrels (*.txt)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export %1</source>
        <translation>Экспорт: %1</translation>
    </message>
    <message>
        <source>Exporting %1…</source>
        <translation>Экспорт %1…</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <extracomment>The Export dialog&apos;s filter for an Excel workbook (untranslated; the dialog shows it translated in context &quot;Transfer&quot;).</extracomment>
        <translation>Книга Excel (*.xlsx)</translation>
    </message>
    <message>
        <source>A comparison needs two runs in the database.</source>
        <translation>Для сравнения в базе нужны два прогона.</translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>Сравнение прогонов</translation>
    </message>
    <message>
        <source>Run A:</source>
        <translation>Прогон A:</translation>
    </message>
    <message>
        <source>Run B:</source>
        <translation>Прогон B:</translation>
    </message>
</context>
<context>
    <name>TransferText</name>
    <message numerus="yes">
        <source>%1: %n line(s) imported</source>
        <translation>
            <numerusform>%1: импортирована %n строка</numerusform>
            <numerusform>%1: импортированы %n строки</numerusform>
            <numerusform>%1: импортировано %n строк</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %n row(s) to %1</source>
        <translation>
            <numerusform>Экспортирована %n строка в %1</numerusform>
            <numerusform>Экспортированы %n строки в %1</numerusform>
            <numerusform>Экспортировано %n строк в %1</numerusform>
        </translation>
    </message>
</context>
</TS>
