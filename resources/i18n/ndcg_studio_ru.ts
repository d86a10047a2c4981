<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ru" sourcelanguage="en">
<context>
    <name>BandCountsChart</name>
    <message>
        <source>Queries per quality band</source>
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
        <translation>Удовлетворительно</translation>
    </message>
    <message>
        <source>Poor</source>
        <translation>Плохо</translation>
    </message>
    <message>
        <source>Bad</source>
        <translation>Очень плохо</translation>
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
    <name>ChartView</name>
    <message>
        <source>No data</source>
        <extracomment>categorical series colours (Okabe–Ito: blue, orange, bluish green, reddish purple, …) run A / run B better, in the Compare chart</extracomment>
        <translation>Нет данных</translation>
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
        <source> (paired t-test, α = 0.05, residual variance of the two-way ANOVA; Sakai 2016).</source>
        <translation> (парный t-критерий, α = 0,05, остаточная дисперсия двухфакторного дисперсионного анализа; Sakai 2016).</translation>
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
    <message>
        <source>Δ nDCG@%1 (A − B)</source>
        <translation>Δ nDCG@%1 (A − B)</translation>
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
    <name>Language</name>
    <message>
        <source>The language changes when NDCG Studio is started again.</source>
        <extracomment>the interface languages: code and name, each in its own language (the menu shows these) the context of this module&apos;s own messages in the .ts files</extracomment>
        <translation>Язык сменится при следующем запуске NDCG Studio.</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <extracomment>the language the running application shows (set by :func:`apply_language`)</extracomment>
        <translation>&amp;Язык</translation>
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
        <source>IDCG from all judged documents of the query</source>
        <translation>IDCG по всем оценённым документам запроса</translation>
    </message>
    <message>
        <source>IDCG from the documents the run returned</source>
        <translation>IDCG по документам из выдачи прогона</translation>
    </message>
    <message>
        <source>run order by score descending, ties by document id descending (trec_eval)</source>
        <translation>порядок прогона: по убыванию score, при равенстве — по убыванию id документа (trec_eval)</translation>
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
        <translation>порядок: score, при равенстве — id документа</translation>
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
        <source>&lt;b&gt;%1&lt;/b&gt; vs &lt;b&gt;%2&lt;/b&gt;: Cohen&apos;s κ (linear) %3, Krippendorff&apos;s α (ordinal) %4&lt;br&gt;%5 items, %6 two grades or more apart (Agreement tab: disputed list)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; и &lt;b&gt;%2&lt;/b&gt;: κ Коэна (линейная) %3, α Криппендорфа (порядковая) %4&lt;br&gt;элементов: %5, различаются на две оценки и более: %6 (вкладка «Согласие»: спорные)</translation>
    </message>
    <message>
        <source>Label agreement between sources</source>
        <translation>Согласие оценок между источниками</translation>
    </message>
</context>
<context>
    <name>TeamText</name>
    <message numerus="yes">
        <source>%1: %n judgment(s)</source>
        <extracomment>how often the database is asked for changes</extracomment>
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
</TS>
