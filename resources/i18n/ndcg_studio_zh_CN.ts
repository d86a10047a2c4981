<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AdjudicationPanel</name>
    <message>
        <source>Adjudication</source>
        <translation>裁定</translation>
    </message>
    <message>
        <source>Select a disputed document.</source>
        <translation>请选择一个有争议的文档。</translation>
    </message>
    <message>
        <source>Final grade:</source>
        <translation>最终等级：</translation>
    </message>
    <message>
        <source>Set the final grade to %1 (%2) — key %1</source>
        <translation>将最终等级设为 %1（%2）— 按键 %1</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Remove the final grade (the consensus applies again) — key Backspace</source>
        <translation>删除最终等级（重新采用共识）— 按键 Backspace</translation>
    </message>
    <message>
        <source>&lt;b&gt;Query %1 · document %2&lt;/b&gt;</source>
        <translation>&lt;b&gt;查询 %1 · 文档 %2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Query %1&lt;/b&gt;: %2&lt;br&gt;&lt;b&gt;Document %3&lt;/b&gt;: %4</source>
        <translation>&lt;b&gt;查询 %1&lt;/b&gt;：%2&lt;br&gt;&lt;b&gt;文档 %3&lt;/b&gt;：%4</translation>
    </message>
    <message numerus="yes">
        <source>History: %1 recorded change(s), newest first.</source>
        <translation>
            <numerusform>历史：%1 条记录的更改，最新的在前。</numerusform>
        </translation>
    </message>
    <message>
        <source>History: no recorded change.</source>
        <translation>历史：没有记录的更改。</translation>
    </message>
    <message>
        <source>Choose who you are (Annotator ▸ Switch annotator…) to set final grades.</source>
        <translation>请先选择您的身份（标注者 ▸ 切换标注者…）才能设置最终等级。</translation>
    </message>
    <message>
        <source>Final grades are recorded as set by %1; they win over the consensus in scoring. Keys 0–4 set, Backspace clears.</source>
        <translation>最终等级记录为由 %1 设置；计分时优先于共识。按 0–4 设置，Backspace 清除。</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>Final grade cleared</source>
        <translation>最终等级已清除</translation>
    </message>
    <message>
        <source>Final grade → %1</source>
        <translation>最终等级 → %1</translation>
    </message>
    <message>
        <source>Undoing the final grade</source>
        <translation>撤销最终等级</translation>
    </message>
</context>
<context>
    <name>Agreement</name>
    <message>
        <source>empty: no grades</source>
        <translation>为空：没有等级</translation>
    </message>
    <message>
        <source>no item has two or more grades</source>
        <translation>没有任何条目有两个或更多等级</translation>
    </message>
    <message>
        <source>only one distinct grade: expected disagreement is 0</source>
        <translation>只有一种等级：期望分歧为 0</translation>
    </message>
    <message>
        <source>no resample had a defined alpha</source>
        <extracomment>draw kind counts (multinomial) when the items are at least this many times more than their kinds</extracomment>
        <translation>没有任何重抽样得到有定义的 α</translation>
    </message>
    <message>
        <source>no shared items</source>
        <translation>没有共同的条目</translation>
    </message>
    <message>
        <source>chance agreement is 1: both annotators gave every shared item one and the same grade</source>
        <translation>随机一致性为 1：两位标注者对每个共同条目都给出了同一个等级</translation>
    </message>
    <message>
        <source>every item has one grade; Fleiss&apos; kappa needs at least two per item</source>
        <translation>每个条目只有一个等级；Fleiss&apos; κ 要求每个条目至少两个</translation>
    </message>
    <message>
        <source>only one distinct grade: chance agreement is 1</source>
        <translation>只有一种等级：随机一致性为 1</translation>
    </message>
    <message>
        <source>Cohen&apos;s kappa (unweighted)</source>
        <translation>Cohen&apos;s κ（不加权）</translation>
    </message>
    <message>
        <source>Cohen&apos;s kappa, linear weights</source>
        <translation>Cohen&apos;s κ，线性加权</translation>
    </message>
    <message>
        <source>Cohen&apos;s kappa, quadratic weights</source>
        <translation>Cohen&apos;s κ，二次加权</translation>
    </message>
</context>
<context>
    <name>AgreementView</name>
    <message>
        <source>Ordinal (grades are ordered)</source>
        <translation>定序（等级有顺序）</translation>
    </message>
    <message>
        <source>Interval (equal steps)</source>
        <translation>定距（等间隔）</translation>
    </message>
    <message>
        <source>Ratio (equal steps from a true 0)</source>
        <translation>定比（从真正的 0 起等间隔）</translation>
    </message>
    <message>
        <source>Nominal (categories)</source>
        <translation>定类（类别）</translation>
    </message>
    <message>
        <source>Computing agreement…</source>
        <translation>正在计算一致性…</translation>
    </message>
    <message>
        <source>Agreement failed</source>
        <translation>一致性计算失败</translation>
    </message>
    <message>
        <source>Computing agreement</source>
        <translation>计算一致性</translation>
    </message>
    <message>
        <source>α level:</source>
        <translation>α 测量尺度：</translation>
    </message>
    <message>
        <source>Pairwise:</source>
        <translation>两两：</translation>
    </message>
    <message>
        <source>Pairwise agreement</source>
        <translation>两两一致性</translation>
    </message>
    <message>
        <source>Cohen&apos;s κ of each pair of annotators, on the documents both graded</source>
        <translation>每对标注者在双方都评过的文档上的 Cohen&apos;s κ</translation>
    </message>
    <message>
        <source>α without each annotator</source>
        <translation>去掉各标注者后的 α</translation>
    </message>
    <message>
        <source>Δ &gt; 0: agreement rises without that annotator</source>
        <translation>Δ &gt; 0：去掉该标注者后一致性上升</translation>
    </message>
    <message>
        <source>α per query</source>
        <translation>各查询的 α</translation>
    </message>
    <message>
        <source>All annotators&apos; disputed documents, or the items where two judgment sources differ by two grades or more (the correction queue)</source>
        <translation>所有标注者的争议文档，或两个标注来源相差两个或更多等级的条目（更正队列）</translation>
    </message>
    <message>
        <source>Disputed documents</source>
        <translation>争议文档</translation>
    </message>
    <message>
        <source>Agreement is shown to leads. As an annotator you see only your own grades, not the others&apos;, so there is nothing to compare them with here.</source>
        <translation>一致性仅对负责人显示。作为标注者，您只能看到自己的评级，看不到其他人的，因此这里没有可比较的内容。</translation>
    </message>
    <message>
        <source>No judgments yet: grade documents in Annotate or import qrels to see agreement.</source>
        <translation>尚无标注：在“标注”中为文档评级或导入 qrels 以查看一致性。</translation>
    </message>
    <message>
        <source>All annotators</source>
        <translation>所有标注者</translation>
    </message>
    <message>
        <source>Sources %1 vs %2</source>
        <translation>来源 %1 对 %2</translation>
    </message>
    <message>
        <source>grades differ by %1 or more</source>
        <translation>等级相差 %1 或更多</translation>
    </message>
    <message>
        <source>%1 and %2 differ by 2 grades or more</source>
        <translation>%1 与 %2 相差 2 个或更多等级</translation>
    </message>
    <message>
        <source>Disputed documents: %1 (%2), %3 adjudicated</source>
        <translation>争议文档：%1 个（%2），已裁定 %3 个</translation>
    </message>
    <message>
        <source>ordinal</source>
        <extracomment>the α level&apos;s name inside the headline sentence</extracomment>
        <translation>定序</translation>
    </message>
    <message>
        <source>interval</source>
        <translation>定距</translation>
    </message>
    <message>
        <source>ratio</source>
        <translation>定比</translation>
    </message>
    <message>
        <source>nominal</source>
        <translation>定类</translation>
    </message>
    <message>
        <source>undefined</source>
        <translation>无定义</translation>
    </message>
    <message>
        <source>α undefined for every annotator: %1.</source>
        <translation>对每位标注者 α 均无定义：%1。</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>α undefined without %1: %2.</source>
        <translation>去掉 %1 后 α 无定义：%2。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>&lt;b&gt;Krippendorff&apos;s α (%1)&lt;/b&gt;: undefined — %2. %3, %4.</source>
        <translation>&lt;b&gt;Krippendorff&apos;s α（%1）&lt;/b&gt;：无定义 — %2。%3，%4。</translation>
    </message>
    <message>
        <source>95% interval %1 – %2 (%3 bootstrap resamples of the documents)</source>
        <translation>95% 区间 %1 – %2（对文档进行 %3 次 bootstrap 重抽样）</translation>
    </message>
    <message>
        <source>no interval: %1</source>
        <translation>无区间：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Krippendorff&apos;s α (%1) = %2&lt;/b&gt; &amp;nbsp; %3 &amp;nbsp;·&amp;nbsp; %4 documents graded by two or more of %5 annotators, %6</source>
        <translation>&lt;b&gt;Krippendorff&apos;s α（%1）= %2&lt;/b&gt; &amp;nbsp; %3 &amp;nbsp;·&amp;nbsp; %5 位标注者中有两位或以上评过的文档 %4 个，%6</translation>
    </message>
    <message>
        <source>items have between %1 and %2 grades; Fleiss&apos; kappa needs the same number for every item</source>
        <translation>条目的等级数在 %1 到 %2 之间；Fleiss&apos; κ 要求每个条目的等级数相同</translation>
    </message>
    <message>
        <source>Fleiss&apos; κ: not applicable — %1.</source>
        <translation>Fleiss&apos; κ：不适用 — %1。</translation>
    </message>
    <message>
        <source>Fleiss&apos; κ = %1 (%2 documents, %3 grades each; nominal, chance-corrected)</source>
        <translation>Fleiss&apos; κ = %1（%2 个文档，每个 %3 个等级；定类，经随机校正）</translation>
    </message>
    <message>
        <source>Machine source %1: labels from %2; templates %3</source>
        <translation>机器来源 %1：标签来自 %2；模板 %3</translation>
    </message>
    <message>
        <source>more than one model or template</source>
        <translation>多个模型或模板</translation>
    </message>
</context>
<context>
    <name>AnnotateLoader</name>
    <message>
        <source>Loading…</source>
        <extracomment>where the last opened query is remembered (&quot;database label
query external id&quot;) ranks the list&apos;s texts in the collation after the list is shown (see QueryColumns) the query opened as the first of the list before its pools were counted (the counts then say whether it is the first unfinished one): see :meth:`_on_rows_listed` a reload came while the list was counted: the open pool is read again with the counts the document to show when the loading query&apos;s pool arrives a reload came while the view was hidden in a shown window: load when it is shown</extracomment>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>No database is open.

Use File ▸ New database… (Ctrl+N) or File ▸ Open database… (Ctrl+O).</source>
        <translation>没有打开的数据库。

请使用 文件 ▸ 新建数据库…（Ctrl+N）或 文件 ▸ 打开数据库…（Ctrl+O）。</translation>
    </message>
    <message>
        <source>Loading queries…</source>
        <translation>正在加载查询…</translation>
    </message>
    <message>
        <source>Pool</source>
        <translation>标注池</translation>
    </message>
    <message>
        <source>This database has no queries yet.

Import queries, documents and runs with File ▸ Import…, or start the app with --demo for the Cranfield collection.</source>
        <translation>此数据库还没有查询。

请用 文件 ▸ 导入… 导入查询、文档和运行，或以 --demo 启动程序以使用 Cranfield 数据集。</translation>
    </message>
    <message>
        <source>Loading the pool</source>
        <translation>加载标注池</translation>
    </message>
    <message>
        <source>(no text)</source>
        <translation>（无文本）</translation>
    </message>
    <message>
        <source>Nothing to judge for this query: no run returned a document for it.</source>
        <translation>此查询无可标注内容：没有运行为它返回文档。</translation>
    </message>
</context>
<context>
    <name>AnnotateView</name>
    <message>
        <source>Queries</source>
        <extracomment>the query list is shown (its pools may still be counted: see :attr:`rows_loaded`) the query list with its pools counted is shown and a query is open a grade key or Enter with nobody annotating yet: the window asks for a name (an analyst who never grades is never asked)</extracomment>
        <translation>查询</translation>
    </message>
    <message>
        <source>Pool · %1 / %2 judged</source>
        <translation>标注池 · 已标注 %1 / %2</translation>
    </message>
    <message>
        <source>%1 queries · counting the pools…</source>
        <translation>%1 个查询 · 正在统计文档池…</translation>
    </message>
    <message>
        <source>%1 of %2 queries complete · %3 / %4 documents judged</source>
        <translation>已完成 %1 / %2 个查询 · 已标注 %3 / %4 个文档</translation>
    </message>
    <message>
        <source>Nobody is annotating yet: press a grade key or Enter to give your name.</source>
        <translation>还没有标注者：按评分键或 Enter 输入您的名字。</translation>
    </message>
    <message>
        <source>Everything in the list is judged.</source>
        <translation>列表中的全部内容均已标注。</translation>
    </message>
</context>
<context>
    <name>AnnotatorStatusModel</name>
    <message>
        <source>Annotator</source>
        <extracomment>(header, field of AnnotatorStatus); headers translated in context &quot;AnnotatorStatusModel&quot;</extracomment>
        <translation>标注者</translation>
    </message>
    <message>
        <source>Assigned</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Can&apos;t judge</source>
        <translation>无法判断</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>稍后</translation>
    </message>
    <message>
        <source>Median s</source>
        <translation>中位秒数</translation>
    </message>
    <message>
        <source>Leniency</source>
        <translation>宽松度</translation>
    </message>
    <message>
        <source>κ vs others</source>
        <translation>与他人的 κ</translation>
    </message>
    <message>
        <source>α without</source>
        <translation>去掉后的 α</translation>
    </message>
    <message>
        <source>Gold exact</source>
        <translation>金标准完全一致</translation>
    </message>
    <message>
        <source>Gold ±1</source>
        <translation>金标准 ±1</translation>
    </message>
    <message>
        <source>Grades 0–4</source>
        <translation>等级 0–4</translation>
    </message>
    <message>
        <source>Gold accuracy below the campaign&apos;s threshold</source>
        <translation>金标准准确率低于该项目的阈值</translation>
    </message>
</context>
<context>
    <name>AppContext</name>
    <message>
        <source>no database is open: use File ▸ Open database… first</source>
        <translation>没有打开的数据库：请先使用 文件 ▸ 打开数据库…</translation>
    </message>
</context>
<context>
    <name>BandCountsChart</name>
    <message>
        <source>Queries per quality band</source>
        <extracomment>categorical series colours (Okabe–Ito: blue, orange, bluish green, reddish purple, …) run A / run B better, in the Compare chart</extracomment>
        <translation>各质量等级的查询数</translation>
    </message>
    <message>
        <source>queries</source>
        <translation>查询数</translation>
    </message>
</context>
<context>
    <name>Bands</name>
    <message>
        <source>Excellent</source>
        <extracomment>item-data role carrying a band code (int, :data:`NO_BAND` for none) in the models fill of each band&apos;s chip (Okabe–Ito blue, sky blue, yellow, orange, vermillion) the name of each band as the GUI shows it (translated in context &quot;Bands&quot;; the Chinese names are those of the documents the app grew from: 优秀 / 良好 / 一般 / 差 / 很差)</extracomment>
        <translation>优秀</translation>
    </message>
    <message>
        <source>Good</source>
        <translation>良好</translation>
    </message>
    <message>
        <source>Fair</source>
        <translation>一般</translation>
    </message>
    <message>
        <source>Poor</source>
        <translation>差</translation>
    </message>
    <message>
        <source>Bad</source>
        <translation>很差</translation>
    </message>
    <message>
        <source>no band: the query has no judgments, so nDCG is undefined</source>
        <translation>无等级：该查询没有标注，nDCG 无定义</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>BreakdownTableModel</name>
    <message>
        <source>unjudged</source>
        <extracomment>background of a disputed row: translucent Okabe–Ito orange, visible on light and dark bases</extracomment>
        <translation>未标注</translation>
    </message>
    <message>
        <source>Cumulative DCG</source>
        <translation>累积 DCG</translation>
    </message>
    <message>
        <source>Cumulative IDCG</source>
        <translation>累积 IDCG</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>名次</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Consensus</source>
        <translation>共识</translation>
    </message>
    <message>
        <source>Gain</source>
        <translation>增益</translation>
    </message>
    <message>
        <source>Discount</source>
        <translation>折损</translation>
    </message>
    <message>
        <source>Disc. gain</source>
        <translation>折损增益</translation>
    </message>
    <message>
        <source>Grade given by %1 (0–4)</source>
        <translation>%1 给出的等级（0–4）</translation>
    </message>
    <message>
        <source>Position in the run&apos;s order (score descending, ties by document id descending)</source>
        <translation>在运行顺序中的位置（按得分降序，得分相同按文档编号降序）</translation>
    </message>
    <message>
        <source>Position in the ideal order (gain descending)</source>
        <translation>在理想排序中的位置（按增益降序）</translation>
    </message>
    <message>
        <source>One grade per document: the %1 of the annotators&apos; grades (an adjudicated grade wins)</source>
        <translation>每个文档一个等级：标注者等级的%1（裁定的等级优先）</translation>
    </message>
    <message>
        <source>gain = grade</source>
        <translation>增益 = 等级</translation>
    </message>
    <message>
        <source>gain = 2^grade − 1</source>
        <translation>增益 = 2^等级 − 1</translation>
    </message>
    <message>
        <source>discount = 1 / log2(rank + 1)</source>
        <translation>折损 = 1 / log2(名次 + 1)</translation>
    </message>
    <message>
        <source>discounted gain = gain × discount</source>
        <translation>折损增益 = 增益 × 折损</translation>
    </message>
    <message>
        <source>running sum of the discounted gains</source>
        <translation>折损增益的累计和</translation>
    </message>
    <message>
        <source>%1
Disputed: grades differ by %2 (≥ %3) — %4</source>
        <translation>%1
有争议：等级相差 %2（≥ %3）— %4</translation>
    </message>
    <message>
        <source>Nobody judged this document for this query: it counts as gain 0.</source>
        <translation>没有人为此查询标注过这个文档：按增益 0 计。</translation>
    </message>
</context>
<context>
    <name>CampaignDashboard</name>
    <message>
        <source>open</source>
        <extracomment>a campaign&apos;s status as the dashboard names it</extracomment>
        <translation>进行中</translation>
    </message>
    <message>
        <source>closed</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <source>Campaign dashboard</source>
        <translation>标注项目看板</translation>
    </message>
    <message>
        <source>No campaign yet: Campaign ▸ New campaign…</source>
        <translation>尚无标注项目：标注项目 ▸ 新建标注项目…</translation>
    </message>
    <message>
        <source>Computing the statistics of %1…</source>
        <translation>正在计算 %1 的统计数据…</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt; (%2) · %3 / %4 items complete with %5 grade(s) each · %6 gold at %7 · %8 / %9 queries complete · runs %10 at depth %11</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;（%2）· 已完成 %3 / %4 个条目，每个 %5 个等级 · 金标准 %6 个，比例 %7 · 已完成 %8 / %9 个查询 · 运行 %10，深度 %11</numerusform>
        </translation>
    </message>
    <message>
        <source>Drawn queries (ppi): %1 of %2 drawn (%3 expected), %4 complete · estimate ready</source>
        <translation>抽中的查询（ppi）：%2 个中抽中 %1 个（期望 %3 个），已完成 %4 个 · 估计已就绪</translation>
    </message>
    <message>
        <source>Drawn queries (ppi): %1 of %2 drawn (%3 expected), %4 complete · unfinished: %5, first: %6</source>
        <translation>抽中的查询（ppi）：%2 个中抽中 %1 个（期望 %3 个），已完成 %4 个 · 未完成：%5 个，第一个：%6</translation>
    </message>
    <message>
        <source>%1 later</source>
        <translation>%1 稍后</translation>
    </message>
    <message>
        <source>%1 can&apos;t judge (%2)</source>
        <translation>%1 无法判断（%2）</translation>
    </message>
    <message>
        <source>%1 can&apos;t judge</source>
        <translation>%1 无法判断</translation>
    </message>
    <message>
        <source>No marks.</source>
        <translation>没有标记。</translation>
    </message>
    <message>
        <source>Marks: %1</source>
        <translation>标记：%1</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>CampaignDialog</name>
    <message>
        <source>New campaign</source>
        <translation>新建标注项目</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Runs to pool</source>
        <translation>纳入标注池的运行</translation>
    </message>
    <message>
        <source>no machine source: import one&apos;s grades first</source>
        <translation>没有机器来源：请先导入其评分</translation>
    </message>
    <message>
        <source>Machine source</source>
        <translation>机器来源</translation>
    </message>
    <message>
        <source>names separated by spaces or commas</source>
        <translation>名字之间用空格或逗号分隔</translation>
    </message>
    <message>
        <source>Annotators</source>
        <translation>标注者</translation>
    </message>
    <message>
        <source># Guidelines

What makes a document *relevant*…</source>
        <translation># 标注指南

什么样的文档算 *相关*…</translation>
    </message>
    <message>
        <source>Guidelines (Markdown)</source>
        <translation>标注指南（Markdown）</translation>
    </message>
    <message>
        <source>depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>grades per item</source>
        <translation>每个条目的等级数</translation>
    </message>
    <message>
        <source>Pool</source>
        <translation>标注池</translation>
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
        <translation>顺序</translation>
    </message>
    <message>
        <source>fewest grades first, shuffled (depth)</source>
        <translation>等级最少的优先，随机打乱（depth）</translation>
    </message>
    <message>
        <source>move-to-front (mtf)</source>
        <translation>移到最前（mtf）</translation>
    </message>
    <message>
        <source>discounted MaxMean bandit (bandit)</source>
        <translation>折扣 MaxMean 多臂老虎机（bandit）</translation>
    </message>
    <message>
        <source>what decides run A vs B (ab)</source>
        <translation>决定运行 A 与 B 的文档（ab）</translation>
    </message>
    <message>
        <source>what shrinks the interval of the estimate of A vs B (ppi)</source>
        <translation>缩小 A 与 B 估计区间的查询（ppi）</translation>
    </message>
    <message>
        <source>Queries drawn (expected)</source>
        <translation>抽取的查询数（期望）</translation>
    </message>
    <message>
        <source>a quarter of the queries, at least %1</source>
        <translation>查询的四分之一，至少 %1 个</translation>
    </message>
    <message>
        <source>all queries</source>
        <translation>所有查询</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Query sample</source>
        <translation>查询抽样</translation>
    </message>
    <message>
        <source>none: no gold checks (a file of QUERY [ITER] DOCUMENT GRADE lines)</source>
        <translation>无：不做金标准检查（文件每行为 QUERY [ITER] DOCUMENT GRADE）</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Gold items</source>
        <translation>金标准条目</translation>
    </message>
    <message>
        <source>warn below</source>
        <translation>低于此值时警告</translation>
    </message>
    <message>
        <source>Gold rate</source>
        <translation>金标准比例</translation>
    </message>
    <message>
        <source>Gold items or qrels (*.txt *.qrels *.tsv);;All files (*)</source>
        <translation>金标准条目或 qrels (*.txt *.qrels *.tsv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>No database is open.</source>
        <translation>没有打开的数据库。</translation>
    </message>
</context>
<context>
    <name>CampaignMenu</name>
    <message>
        <source>&amp;Campaign</source>
        <translation>标注项目(&amp;C)</translation>
    </message>
    <message>
        <source>Campaign %1 is created: %2 items pooled from %3 at depth %4, %5 grades per item (gold items: %6), offered in %8 order to %7.

Its annotators find it in Annotate&apos;s Campaign tab; Campaign ▸ Lead&apos;s dashboard follows it.</source>
        <translation>标注项目 %1 已创建：从 %3 按深度 %4 汇集了 %2 个条目，每个条目 %5 个评分（金标准条目：%6），按 %8 顺序分配给 %7。

标注者可在“标注”页的“标注项目”标签中找到它；“标注项目 ▸ 负责人看板”可跟踪其进度。</translation>
    </message>
    <message>
        <source>New campaign</source>
        <translation>新建标注项目</translation>
    </message>
    <message>
        <source>&amp;New campaign…</source>
        <translation>新建标注项目(&amp;N)…</translation>
    </message>
    <message>
        <source>Lead&apos;s &amp;dashboard…</source>
        <translation>负责人看板(&amp;D)…</translation>
    </message>
    <message>
        <source>Next from &amp;queue</source>
        <translation>从队列取下一个(&amp;Q)</translation>
    </message>
</context>
<context>
    <name>CampaignPanel</name>
    <message>
        <source>(no campaign: the whole pool)</source>
        <extracomment>the chooser&apos;s first item (translated in context &quot;CampaignPanel&quot;)</extracomment>
        <translation>（无标注项目：整个标注池）</translation>
    </message>
    <message>
        <source>Campaign</source>
        <translation>标注项目</translation>
    </message>
    <message>
        <source>Next from queue</source>
        <translation>从队列取下一个</translation>
    </message>
    <message>
        <source>Open the next document the campaign offers you (Q)</source>
        <translation>打开标注项目分配给您的下一个文档（Q）</translation>
    </message>
    <message>
        <source>Can&apos;t judge…</source>
        <translation>无法判断…</translation>
    </message>
    <message>
        <source>You cannot judge this document: say why (X)</source>
        <translation>您无法判断此文档：请说明原因（X）</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>稍后</translation>
    </message>
    <message>
        <source>Skip this document for now (L)</source>
        <translation>暂时跳过此文档（L）</translation>
    </message>
    <message>
        <source>*No guidelines for this campaign.*</source>
        <translation>*此标注项目没有标注指南。*</translation>
    </message>
    <message>
        <source>Description.</source>
        <translation>描述。</translation>
    </message>
    <message>
        <source>Narrative.</source>
        <translation>说明。</translation>
    </message>
    <message>
        <source>Query %1</source>
        <translation>查询 %1</translation>
    </message>
    <message>
        <source>You: %1 graded · %2 can&apos;t judge · %3 later</source>
        <translation>您：已评级 %1 · 无法判断 %2 · 稍后 %3</translation>
    </message>
    <message>
        <source>You take part in no open campaign: there is no queue to take from.</source>
        <translation>您没有参与任何进行中的标注项目：没有可领取的队列。</translation>
    </message>
    <message>
        <source>Choose a campaign in the Campaign tab to take from its queue.</source>
        <translation>请先在“标注项目”标签页中选择一个标注项目，再从其队列领取文档。</translation>
    </message>
    <message>
        <source>Taking the next document</source>
        <translation>获取下一个文档</translation>
    </message>
    <message>
        <source>%1
Nothing left for you in this campaign.</source>
        <translation>%1
此标注项目中已没有留给您的内容。</translation>
    </message>
    <message>
        <source>Marking the document</source>
        <translation>标记文档</translation>
    </message>
    <message>
        <source>Can&apos;t judge</source>
        <translation>无法判断</translation>
    </message>
    <message>
        <source>Why can&apos;t you judge it?</source>
        <translation>为什么无法判断？</translation>
    </message>
</context>
<context>
    <name>ChangesPanel</name>
    <message>
        <source>RBO&apos;s persistence: the weight of rank d+1 relative to rank d (0.9: the top 10 weigh most)</source>
        <translation>RBO 的持久度：第 d+1 名相对第 d 名的权重（0.9：前 10 名权重最大）</translation>
    </message>
    <message>
        <source>Judge what entered…</source>
        <translation>评判新进入的文档…</translation>
    </message>
    <message>
        <source>Make the documents that entered B&apos;s top K unjudged a judging campaign</source>
        <translation>将进入 B 前 K 名且尚未评判的文档建为评判活动</translation>
    </message>
    <message>
        <source>RBO p:</source>
        <translation>RBO p：</translation>
    </message>
    <message>
        <source>Computing what changed…</source>
        <translation>正在计算变化…</translation>
    </message>
    <message>
        <source>Nothing to compare: %1</source>
        <translation>无可比较：%1</translation>
    </message>
    <message>
        <source>Finding what changed</source>
        <translation>计算变化</translation>
    </message>
    <message>
        <source>Mean over %1 queries: overlap@%2 %3 · Jaccard %4 · RBO (p = %5) %6 · ΔnDCG@%2 (B − A) %7</source>
        <translation>%1 个查询的平均：重叠@%2 %3 · Jaccard 系数 %4 · RBO（p = %5）%6 · ΔnDCG@%2（B − A）%7</translation>
    </message>
    <message>
        <source>Entered the top %1: %2 documents, %3 of them unjudged; left it: %4.</source>
        <translation>进入前 %1 名：%2 篇文档，其中 %3 篇未评判；离开：%4 篇。</translation>
    </message>
    <message>
        <source>Creating the campaign…</source>
        <translation>正在创建评判活动…</translation>
    </message>
    <message>
        <source>Campaign %1 is created: %2 documents that entered %3&apos;s top %4 unjudged, for %5. Its annotators find it in Annotate&apos;s Campaign tab.</source>
        <translation>已创建评判活动 %1：进入 %3 前 %4 名且未评判的文档 %2 篇，评判者：%5。评判者可在“标注”的“活动”标签页中找到它。</translation>
    </message>
    <message>
        <source>No campaign: %1</source>
        <translation>未创建评判活动：%1</translation>
    </message>
    <message>
        <source>Creating the campaign</source>
        <translation>创建评判活动</translation>
    </message>
</context>
<context>
    <name>ChangesTableModel</name>
    <message>
        <source>Query</source>
        <extracomment>at most this many document ids in a cell&apos;s tooltip</extracomment>
        <translation>查询</translation>
    </message>
    <message>
        <source>Overlap</source>
        <translation>重叠</translation>
    </message>
    <message>
        <source>Entered</source>
        <translation>进入</translation>
    </message>
    <message>
        <source>Left</source>
        <translation>离开</translation>
    </message>
    <message>
        <source>Entered unjudged</source>
        <translation>进入且未评判</translation>
    </message>
    <message>
        <source>Documents in both top %1, divided by %1</source>
        <translation>同在两个前 %1 名中的文档数除以 %1</translation>
    </message>
    <message>
        <source>Rank-biased overlap of the two top %1, extrapolated (Webber et al. 2010), p = %2</source>
        <translation>两个前 %1 名的秩偏重叠（RBO，外推形式；Webber 等，2010），p = %2</translation>
    </message>
    <message>
        <source>Documents in B&apos;s top %1 and not in A&apos;s</source>
        <translation>在 B 的前 %1 名中而不在 A 的前 %1 名中的文档</translation>
    </message>
    <message>
        <source>Documents in A&apos;s top %1 and not in B&apos;s</source>
        <translation>在 A 的前 %1 名中而不在 B 的前 %1 名中的文档</translation>
    </message>
    <message>
        <source>Documents that entered and have no judgment yet</source>
        <translation>新进入且尚无评判的文档</translation>
    </message>
    <message>
        <source>nDCG@%1 of B minus nDCG@%1 of A</source>
        <translation>B 的 nDCG@%1 减去 A 的 nDCG@%1</translation>
    </message>
</context>
<context>
    <name>CompareMatrixPanel</name>
    <message>
        <source>No baseline: every pair, corrected by the randomised Tukey HSD. A baseline: only the pairs with it, corrected by Holm–Bonferroni.</source>
        <extracomment>permutations of the randomised Tukey HSD in the GUI (the CLI&apos;s default too)</extracomment>
        <translation>无基线：比较每一对，用随机化 Tukey HSD 校正。有基线：只比较与基线的配对，用 Holm–Bonferroni 校正。</translation>
    </message>
    <message>
        <source>All runs, best mean first · baseline:</source>
        <translation>所有运行，平均值最高者在前 · 基线：</translation>
    </message>
    <message>
        <source>Δ = row run − column run; click a cell for its per-query deltas</source>
        <translation>Δ = 行运行 − 列运行；点击单元格查看逐查询的差值</translation>
    </message>
    <message>
        <source>none (Tukey HSD, all pairs)</source>
        <translation>无（Tukey HSD，所有配对）</translation>
    </message>
    <message>
        <source>Testing all pairs…</source>
        <translation>正在检验所有配对…</translation>
    </message>
    <message>
        <source> (%1 left out: not scored in every run)</source>
        <translation>（略去 %1 个：并非每个运行都有得分）</translation>
    </message>
    <message>
        <source>Δ = mean nDCG@%1 of the row run − the column run over the %2 queries every run has a value for</source>
        <translation>Δ = 行运行的平均 nDCG@%1 − 列运行的平均值，基于每个运行都有值的 %2 个查询</translation>
    </message>
    <message>
        <source>; * p &lt; 0.05, ** p &lt; 0.01, *** p &lt; 0.001, corrected: %1.</source>
        <translation>；* p &lt; 0.05，** p &lt; 0.01，*** p &lt; 0.001，校正方法：%1。</translation>
    </message>
    <message>
        <source>With %1 queries you can detect Δ ≥ %2 at 80% power (paired t-test, α = 0.05, residual variance of the two-way ANOVA; Sakai 2016).</source>
        <translation>用 %1 个查询，可以在 80% 检验功效下检出 Δ ≥ %2（配对 t 检验，α = 0.05，双因素方差分析的残差方差；Sakai 2016）。</translation>
    </message>
    <message>
        <source>With %1 queries: the residual variance is 0 (every query moves the runs alike), so no smallest detectable Δ can be stated (paired t-test, α = 0.05, residual variance of the two-way ANOVA; Sakai 2016).</source>
        <translation>用 %1 个查询：残差方差为 0（每个查询对各运行的影响相同），因此无法给出最小可检出的 Δ（配对 t 检验，α = 0.05，双因素方差分析的残差方差；Sakai 2016）。</translation>
    </message>
    <message>
        <source>No comparison: %1.</source>
        <translation>无法比较：%1。</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Comparing all runs</source>
        <translation>比较所有运行</translation>
    </message>
</context>
<context>
    <name>CompareText</name>
    <message>
        <source>Δ mean nDCG@%1 (A − B) ∈ [%2, %3] whatever grades the unjudged documents get</source>
        <translation>无论未标注文档得到什么等级，平均 nDCG@%1 之差 Δ（A − B）∈ [%2, %3]</translation>
    </message>
    <message>
        <source>P(A better) ≈ %1 (estimate)</source>
        <translation>P(A 更好) ≈ %1（估计）</translation>
    </message>
    <message>
        <source>%1 better than %2 — decided after %3 of %4 pooled documents (depth %5). %6. %7.</source>
        <translation>%1 优于 %2 — 在标注池 %4 个文档中标注 %3 个后已确定（深度 %5）。%6。%7。</translation>
    </message>
    <message>
        <source>even every pooled document judged at its expected grade would not settle it (estimate)</source>
        <translation>即使标注池中每个文档都按其期望等级标注也无法确定（估计）</translation>
    </message>
    <message numerus="yes">
        <source>about %1 more judgment(s) would settle it at the current rate (estimate)</source>
        <translation>
            <numerusform>按当前速度，大约再需 %1 条标注即可确定（估计）</numerusform>
        </translation>
    </message>
    <message>
        <source>Not yet decided (%1 of %2 pooled documents judged, depth %3): %4. %5. %6.</source>
        <translation>尚未确定（标注池 %2 个文档中已标注 %1 个，深度 %3）：%4。%5。%6。</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <source>Scoring…</source>
        <translation>正在计分…</translation>
    </message>
    <message>
        <source>Comparing runs</source>
        <translation>比较运行</translation>
    </message>
    <message>
        <source>Per-query Δ</source>
        <translation>逐查询 Δ</translation>
    </message>
    <message>
        <source>What changed (A → B)</source>
        <translation>变化（A → B）</translation>
    </message>
    <message>
        <source>⇄ Swap</source>
        <translation>⇄ 交换</translation>
    </message>
    <message>
        <source>Exchange run A and run B</source>
        <translation>交换运行 A 和运行 B</translation>
    </message>
    <message>
        <source>vs</source>
        <translation>对</translation>
    </message>
    <message>
        <source>Decided: the interval of Δ mean nDCG@K over every grade (0–4) the unjudged documents of the Annotate pool (depth D) could still get excludes 0 — no judgment can flip it.
Not decided: the number of judgments is an estimate (the documents that decide A vs B first, each at the mean judged grade of its rank), and so is P(A better) (unjudged grades drawn from the judged grades at similar ranks; Carterette et al. 2006).</source>
        <translation>已确定：在“标注”标注池（深度 D）中未标注文档仍可能得到的所有等级（0–4）下，平均 nDCG@K 之差 Δ 的区间不包含 0 — 任何标注都无法使其反转。
未确定：所需标注数是估计值（先标注决定 A 与 B 的文档，每个按其名次的平均已标注等级计），P(A 更好) 也是估计值（未标注的等级从相近名次的已标注等级中抽取；Carterette 等，2006）。</translation>
    </message>
    <message>
        <source>Judge what decides A vs B</source>
        <translation>标注决定 A 与 B 的文档</translation>
    </message>
    <message>
        <source>Annotate shows first the documents whose grade can change which run is better (Annotator ▸ Pool order); annotators still see no run, rank or score</source>
        <translation>“标注”先显示其等级能改变哪个运行更好的文档（标注者 ▸ 标注池顺序）；标注者仍看不到运行、名次或得分</translation>
    </message>
    <message>
        <source>Comparing needs two runs: import another run (File ▸ Import…).</source>
        <translation>比较需要两个运行：请再导入一个运行（文件 ▸ 导入…）。</translation>
    </message>
    <message>
        <source>No runs yet: import runs (File ▸ Import…).</source>
        <translation>尚无运行：请导入运行（文件 ▸ 导入…）。</translation>
    </message>
    <message>
        <source>Pick two different runs.</source>
        <translation>请选择两个不同的运行。</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <source>Verdict over the depth-%1 pool: computing…</source>
        <translation>深度 %1 标注池上的结论：计算中…</translation>
    </message>
    <message>
        <source>No verdict: %1</source>
        <translation>无结论：%1</translation>
    </message>
    <message>
        <source>Annotate now shows first what decides A vs B</source>
        <translation>“标注”现在先显示决定 A 与 B 的文档</translation>
    </message>
    <message>
        <source>Testing significance…</source>
        <translation>正在检验显著性…</translation>
    </message>
    <message>
        <source>no judged queries</source>
        <translation>没有已标注的查询</translation>
    </message>
    <message>
        <source>mean nDCG@%1 &lt;b&gt;%2&lt;/b&gt;</source>
        <translation>平均 nDCG@%1 &lt;b&gt;%2&lt;/b&gt;</translation>
    </message>
    <message>
        <source>95% CI computing…</source>
        <translation>95% 置信区间：计算中…</translation>
    </message>
    <message>
        <source>95% CI %1 – %2</source>
        <translation>95% 置信区间 %1 – %2</translation>
    </message>
    <message>
        <source>%1 judged queries</source>
        <translation>%1 个已标注查询</translation>
    </message>
    <message>
        <source>No query has an nDCG in both runs.</source>
        <translation>没有任何查询在两个运行中都有 nDCG。</translation>
    </message>
    <message>
        <source>Over the %1 queries scored in both runs: mean Δ (A − B) = &lt;b&gt;%2&lt;/b&gt; &amp;nbsp;·&amp;nbsp; A better on &lt;b&gt;%3&lt;/b&gt; &amp;nbsp;·&amp;nbsp; B better on &lt;b&gt;%4&lt;/b&gt; &amp;nbsp;·&amp;nbsp; ties %5</source>
        <translation>在两个运行中都有得分的 %1 个查询上：平均 Δ（A − B）= &lt;b&gt;%2&lt;/b&gt; &amp;nbsp;·&amp;nbsp; A 更好 &lt;b&gt;%3&lt;/b&gt; 个 &amp;nbsp;·&amp;nbsp; B 更好 &lt;b&gt;%4&lt;/b&gt; 个 &amp;nbsp;·&amp;nbsp; 持平 %5 个</translation>
    </message>
    <message>
        <source>Paired randomization test: computing (10,000 sign flips)…</source>
        <translation>配对随机化检验：计算中（10,000 次符号翻转）…</translation>
    </message>
    <message>
        <source>Paired randomization test (two-sided, random sign flips of the per-query deltas): %1 — the difference is significant at the 0.05 level.</source>
        <translation>配对随机化检验（双侧，随机翻转逐查询差值的符号）：%1 — 差异在 0.05 水平上显著。</translation>
    </message>
    <message>
        <source>Paired randomization test (two-sided, random sign flips of the per-query deltas): %1 — the difference is not significant at the 0.05 level.</source>
        <translation>配对随机化检验（双侧，随机翻转逐查询差值的符号）：%1 — 差异在 0.05 水平上不显著。</translation>
    </message>
</context>
<context>
    <name>CondensedPanel</name>
    <message>
        <source>Scoring nDCG′…</source>
        <translation>正在计算 nDCG′…</translation>
    </message>
    <message>
        <source>Scoring nDCG′</source>
        <translation>计算 nDCG′</translation>
    </message>
    <message>
        <source>Flag rows where |nDCG′ − nDCG| exceeds this</source>
        <translation>标记 |nDCG′ − nDCG| 超过此值的行</translation>
    </message>
    <message>
        <source>Only flagged rows</source>
        <translation>只显示已标记的行</translation>
    </message>
    <message>
        <source>Flag when nDCG′ and nDCG differ by more than</source>
        <translation>当 nDCG′ 与 nDCG 之差大于此值时标记</translation>
    </message>
    <message>
        <source>No judged (query, run) yet: nothing to compare.</source>
        <translation>尚无已标注的（查询，运行）：无可比较。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; of %2 judged (query, run) rows differ by more than %3: there, holes in the judgments move the score (%4). nDCG′@%5 removes the unjudged documents before scoring (Sakai 2007).</source>
        <translation>%2 个已标注的（查询，运行）行中有 &lt;b&gt;%1&lt;/b&gt; 个相差超过 %3：在这些行中，标注的缺口改变了得分（%4）。nDCG′@%5 在计算前去掉未标注的文档（Sakai 2007）。</translation>
    </message>
</context>
<context>
    <name>CondensedTableModel</name>
    <message>
        <source>Query</source>
        <extracomment>|nDCG′ − nDCG| above this flags a row by default</extracomment>
        <translation>查询</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Judged@%1</source>
        <translation>已评@%1</translation>
    </message>
    <message>
        <source>nDCG and nDCG′ differ by more than %1: the unjudged documents of this list move the score; judge them (Annotate) to settle it</source>
        <translation>nDCG 与 nDCG′ 相差超过 %1：此列表中未标注的文档会影响得分；请标注它们（“标注”）以确定</translation>
    </message>
</context>
<context>
    <name>Counts</name>
    <message numerus="yes">
        <source>%1 annotator(s)</source>
        <extracomment>the language the running application shows (set by :func:`apply_language`)</extracomment>
        <translation>
            <numerusform>%1 位标注者</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 document(s)</source>
        <translation>
            <numerusform>%1 个文档</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 item(s)</source>
        <translation>
            <numerusform>%1 个条目</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 judgment(s)</source>
        <translation>
            <numerusform>%1 条标注</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 query(ies)</source>
        <translation>
            <numerusform>%1 个查询</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 row(s)</source>
        <translation>
            <numerusform>%1 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 run(s)</source>
        <translation>
            <numerusform>%1 个运行</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CumulativeDcgChart</name>
    <message>
        <source>Cumulative DCG by rank</source>
        <translation>按位置的累计 DCG</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>ideal (IDCG)</source>
        <translation>理想排序（IDCG）</translation>
    </message>
    <message>
        <source>%1 (DCG)</source>
        <translation>%1（DCG）</translation>
    </message>
</context>
<context>
    <name>DatabaseMenu</name>
    <message>
        <source>New database</source>
        <translation>新建数据库</translation>
    </message>
    <message>
        <source>SQLite database (*.sqlite *.db)</source>
        <translation>SQLite 数据库 (*.sqlite *.db)</translation>
    </message>
    <message>
        <source>%1 already exists; use File ▸ Open database… to open it.</source>
        <translation>%1 已存在；请使用 文件 ▸ 打开数据库… 打开它。</translation>
    </message>
    <message>
        <source>Open database</source>
        <translation>打开数据库</translation>
    </message>
    <message>
        <source>SQLite database (*.sqlite *.db);;All files (*)</source>
        <translation>SQLite 数据库 (*.sqlite *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Connect to a team server</source>
        <translation>连接团队服务器</translation>
    </message>
    <message>
        <source>PostgreSQL URL (password in ~/.pgpass or $PGPASSWORD, not here):</source>
        <translation>PostgreSQL URL（密码请放在 ~/.pgpass 或 $PGPASSWORD 中，不要写在这里）：</translation>
    </message>
    <message>
        <source>Opening the database</source>
        <translation>打开数据库</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>There is no database at %1.

Create a new, empty database there?</source>
        <translation>%1 处没有数据库。

要在那里新建一个空数据库吗？</translation>
    </message>
    <message>
        <source>Load the demo</source>
        <translation>加载演示</translation>
    </message>
    <message>
        <source>The demo collection goes into an empty database, and this one already holds queries.

Create one with File ▸ New database…, then load the demo there.</source>
        <translation>演示数据集只能载入空数据库，而这个数据库已有查询。

请用 文件 ▸ 新建数据库… 创建一个，再在其中加载演示。</translation>
    </message>
    <message>
        <source>Cranfield demo loaded: 1,400 documents, 225 queries, Cleverdon&apos;s judgments (annotator %1), runs %2</source>
        <translation>Cranfield 演示数据已加载：1,400 个文档、225 个查询、Cleverdon 的标注（标注者 %1），运行 %2</translation>
    </message>
    <message>
        <source>Loading the Cranfield demo collection…</source>
        <translation>正在加载 Cranfield 演示数据集…</translation>
    </message>
</context>
<context>
    <name>DeltaChart</name>
    <message>
        <source>Per-query Δ nDCG, sorted</source>
        <translation>逐查询的 Δ nDCG（已排序）</translation>
    </message>
    <message>
        <source>%1 better</source>
        <translation>%1 更好</translation>
    </message>
    <message numerus="yes">
        <source>%n queries, sorted by Δ</source>
        <translation>
            <numerusform>%n 个查询，按 Δ 排序</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n queries, sorted by Δ, %1 per bar</source>
        <translation>
            <numerusform>%n 个查询，按 Δ 排序，每条柱 %1 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DeltaTableModel</name>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Better</source>
        <translation>更好</translation>
    </message>
    <message>
        <source>nDCG@%1 of %2</source>
        <translation>%2 的 nDCG@%1</translation>
    </message>
    <message>
        <source>nDCG of A minus nDCG of B: positive when A ranks this query better</source>
        <translation>A 的 nDCG 减去 B 的 nDCG：A 对该查询排序更好时为正</translation>
    </message>
    <message>
        <source>tie</source>
        <translation>持平</translation>
    </message>
    <message>
        <source>Same nDCG in both runs</source>
        <translation>两个运行的 nDCG 相同</translation>
    </message>
    <message>
        <source>%1 ranks this query better</source>
        <translation>%1 对该查询排序更好</translation>
    </message>
</context>
<context>
    <name>DisputedItemsModel</name>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Range</source>
        <translation>极差</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均值</translation>
    </message>
    <message>
        <source>Final</source>
        <translation>最终</translation>
    </message>
    <message>
        <source>Grades</source>
        <translation>等级</translation>
    </message>
    <message>
        <source>Not adjudicated yet</source>
        <translation>尚未裁定</translation>
    </message>
    <message>
        <source>Adjudicated final grade</source>
        <translation>裁定的最终等级</translation>
    </message>
</context>
<context>
    <name>DocumentPanel</name>
    <message>
        <source>%1 · Home/End first/last · Ctrl+Z undo</source>
        <translation>%1 · Home/End 第一个/最后一个 · Ctrl+Z 撤销</translation>
    </message>
    <message>
        <source>QUERY %1</source>
        <translation>查询 %1</translation>
    </message>
    <message>
        <source>Document %1 / %2</source>
        <translation>文档 %1 / %2</translation>
    </message>
    <message>
        <source>Document %1</source>
        <translation>文档 %1</translation>
    </message>
    <message>
        <source>The database has no text for this document. Import the documents (File ▸ Import…, Documents: a CSV or JSONL file of id, title and text) so that annotators read what they grade.</source>
        <translation>数据库中没有这篇文档的正文。请导入文档（文件 ▸ 导入…，文档：包含 id、标题和正文的 CSV 或 JSONL 文件），以便标注者阅读所评的内容。</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>备注：%1</translation>
    </message>
    <message>
        <source>Keys: 0–4 grade · ←/→ move · ⌫ clear · N note · U next unjudged</source>
        <extracomment>the digit keys and the grade each gives the keys the document panel shows as a hint (the tooltip adds the rest); translated in context &quot;DocumentPanel&quot;</extracomment>
        <translation>按键：0–4 评级 · ←/→ 移动 · ⌫ 清除 · N 备注 · U 下一个未标注</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>Lost the connection to the database server</source>
        <extracomment>the title and the advice of each kind of error (translated in context &quot;Errors&quot; when shown)</extracomment>
        <translation>与数据库服务器的连接已断开</translation>
    </message>
    <message>
        <source>Check the network connection or ask whoever runs the server whether it is up, then repeat the last action. Nothing else is lost.</source>
        <translation>请检查网络连接，或询问服务器管理员服务器是否在运行，然后重复上一步操作。其他内容均未丢失。</translation>
    </message>
    <message>
        <source>The database is busy</source>
        <translation>数据库正忙</translation>
    </message>
    <message>
        <source>Wait until the other program (an import in a terminal, a second window of NDCG Studio) has finished, then repeat the last action.</source>
        <translation>请等待另一个程序（终端中的导入、NDCG Studio 的第二个窗口）完成，然后重复上一步操作。</translation>
    </message>
    <message>
        <source>Database from a newer version</source>
        <translation>数据库来自更新的版本</translation>
    </message>
    <message>
        <source>Install the newer version of NDCG Studio, or open another database.</source>
        <translation>请安装更新版本的 NDCG Studio，或打开另一个数据库。</translation>
    </message>
    <message>
        <source>Not allowed for your login</source>
        <translation>您的登录账号无此权限</translation>
    </message>
    <message>
        <source>Grade under your own annotator name (the one of your login). Adjudicating needs a lead login and imports the owner&apos;s: ask the database&apos;s owner.</source>
        <translation>请以您自己的标注者名称（即登录名）进行标注。裁定需要负责人账号，导入需要所有者账号：请联系数据库所有者。</translation>
    </message>
    <message>
        <source>Database problem</source>
        <translation>数据库问题</translation>
    </message>
    <message>
        <source>Check the path or the server address, then try again (File ▸ Open database…).</source>
        <translation>请检查路径或服务器地址，然后重试（文件 ▸ 打开数据库…）。</translation>
    </message>
    <message>
        <source>Permission denied</source>
        <translation>权限不足</translation>
    </message>
    <message>
        <source>Choose a file or folder you may read and write, or change its permissions.</source>
        <translation>请选择您有读写权限的文件或文件夹，或更改其权限。</translation>
    </message>
    <message>
        <source>File not found</source>
        <translation>找不到文件</translation>
    </message>
    <message>
        <source>Check the file name and try again.</source>
        <translation>请检查文件名后重试。</translation>
    </message>
    <message>
        <source>The file has problems</source>
        <translation>文件有问题</translation>
    </message>
    <message>
        <source>Nothing was written: the import is all or nothing. Correct the lines listed (or choose the right file kind, or a grade map for other grade scales) and import the file again.</source>
        <translation>未写入任何内容：导入要么全部成功，要么全部不写入。请更正列出的行（或选择正确的文件类型，或为其他等级体系选择等级映射），然后重新导入文件。</translation>
    </message>
    <message>
        <source>Cannot do that</source>
        <translation>无法执行</translation>
    </message>
    <message>
        <source>Check the input and try again.</source>
        <translation>请检查输入后重试。</translation>
    </message>
    <message>
        <source>Unexpected error</source>
        <translation>意外错误</translation>
    </message>
    <message>
        <source>NDCG Studio keeps running, and saved work is safe. The details are in %1; please attach that file when you report the problem.</source>
        <translation>NDCG Studio 仍在运行，已保存的工作是安全的。详细信息在 %1 中；报告问题时请附上该文件。</translation>
    </message>
    <message>
        <source> while %1</source>
        <translation>（操作：%1）</translation>
    </message>
    <message>
        <source>The database server stopped answering%1. Your last change was NOT saved.</source>
        <translation>数据库服务器停止响应%1。您最后的更改未保存。</translation>
    </message>
    <message>
        <source>Another program is writing to the database file%1, and it stayed locked for 10 seconds. Your last change was NOT saved.</source>
        <translation>另一个程序正在写入数据库文件%1，文件已被锁定 10 秒。您最后的更改未保存。</translation>
    </message>
    <message>
        <source>Something went wrong%1: %2: %3</source>
        <translation>出现错误%1：%2：%3</translation>
    </message>
</context>
<context>
    <name>EstimatePanel</name>
    <message>
        <source>&lt;b&gt;Estimate with a machine judge&lt;/b&gt;</source>
        <translation>&lt;b&gt;借助机器评判的估计&lt;/b&gt;</translation>
    </message>
    <message>
        <source>The machine source (kind model) whose grades are used</source>
        <translation>使用其评分的机器来源（类型 model）</translation>
    </message>
    <message>
        <source>machine source:</source>
        <translation>机器来源：</translation>
    </message>
    <message>
        <source>Estimating…</source>
        <translation>正在估计…</translation>
    </message>
    <message>
        <source>No estimate: %1</source>
        <translation>无估计：%1</translation>
    </message>
    <message>
        <source>Estimating with a machine judge</source>
        <translation>借助机器评判进行估计</translation>
    </message>
</context>
<context>
    <name>EstimateText</name>
    <message>
        <source>The machine source&apos;s mean nDCG@K over every query it graded, corrected by the humans&apos; grades on the queries they judged whole (every item the machine graded): prediction-powered inference (PPI++, Angelopoulos, Duchi &amp; Zrnic 2023). The human-judged queries are taken as a uniform sample of the queries: the interval is valid only if they were not chosen by their runs or grades. Below %1 human-judged queries no interval is given. κ: linear-weighted Cohen&apos;s kappa of the source with the humans on the items both graded. nDCG@K here: linear gain, the ideal from every judged document, whatever the scoring settings.</source>
        <translation>机器来源在其评过的所有查询上的平均 nDCG@K，再以人工完整评判的查询（机器评过的每个条目都有人工评分）上的评分加以校正：预测驱动推断（PPI++，Angelopoulos、Duchi 与 Zrnic 2023）。人工评判的查询被视为所有查询的均匀样本：只有当这些查询的选择与其运行结果和评分无关时，区间才有效。人工评判的查询少于 %1 个时不给出区间。κ：该来源与人工在双方都评过的条目上的线性加权 Cohen kappa。此处的 nDCG@K：线性增益，理想排序取自所有已评判文档，与评分设置无关。</translation>
    </message>
    <message>
        <source>When a campaign in the ppi order drew the queries for the humans (in Compare the latest made for the pair, in Review the latest), its draw is the sample instead: each drawn query weighted by 1/π, its inclusion probability (active inference, Zrnic &amp; Candès 2024), and no estimate until every drawn query is judged whole.</source>
        <translation>若有按 ppi 顺序的标注项目为人工抽取了查询（在对比中取为该运行对创建的最新一个，在审阅中取最新一个），则以其抽样作为样本：每个抽中的查询按 1/π（其入样概率）加权（主动推断，Zrnic 与 Candès 2024），在所有抽中的查询都被完整评判之前不给出估计。</translation>
    </message>
    <message>
        <source>Human sample: the queries campaign %1 drew in the ppi order, each weighted by 1/π.</source>
        <translation>人工样本：标注项目 %1 按 ppi 顺序抽取的查询，每个按 1/π 加权。</translation>
    </message>
    <message numerus="yes">
        <source>campaign %1 drew %2 query(ies) for the humans, %3 judged whole; the estimate waits for all of them</source>
        <translation>
            <numerusform>标注项目 %1 为人工抽取了 %2 个查询，已完整评判 %3 个；估计需等待全部评判完成</numerusform>
        </translation>
    </message>
    <message>
        <source>machine source %1, κ with the humans unknown</source>
        <translation>机器来源 %1，与人工的 κ 未知</translation>
    </message>
    <message>
        <source>machine source %1, κ %2 with the humans</source>
        <translation>机器来源 %1，与人工的 κ 为 %2</translation>
    </message>
    <message>
        <source>too few human-judged queries for the normal approximation (%1 &lt; %2)</source>
        <translation>人工评判的查询太少，无法使用正态近似（%1 &lt; %2）</translation>
    </message>
    <message>
        <source>no query has human grades on every item the machine source graded</source>
        <translation>没有任何查询在机器来源评过的每个条目上都有人工评分</translation>
    </message>
    <message>
        <source>%1 vs %2: not yet decided — %3 (machine source %4)</source>
        <translation>%1 对 %2：尚未确定 — %3（机器来源 %4）</translation>
    </message>
    <message>
        <source>%1 vs %2: not yet decided — %3 (%4)</source>
        <translation>%1 对 %2：尚未确定 — %3（%4）</translation>
    </message>
    <message>
        <source>%1 better than %2</source>
        <translation>%1 优于 %2</translation>
    </message>
    <message>
        <source>%1 vs %2: not yet decided</source>
        <translation>%1 对 %2：尚未确定</translation>
    </message>
    <message numerus="yes">
        <source>; human grades alone would need about %1 more query(ies) for the same width</source>
        <translation>
            <numerusform>；仅凭人工评分，要达到相同宽度约需再评判 %1 个查询</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 — %2 % interval %3 from %4 human-judged queries and machine grades on %5%6 (%7)</source>
        <translation>
            <numerusform>%1 — %2% 区间 %3，基于 %4 个人工评判的查询与 %5 个查询上的机器评分%6（%7）</numerusform>
        </translation>
    </message>
    <message>
        <source>Estimate with machine source %1: not yet decided — %2</source>
        <translation>借助机器来源 %1 的估计：尚未确定 — %2</translation>
    </message>
    <message>
        <source>Estimate with a machine judge (%1): not yet decided — %2</source>
        <translation>借助机器评判的估计（%1）：尚未确定 — %2</translation>
    </message>
    <message numerus="yes">
        <source>Estimate with a machine judge (%1), %2 % intervals from %3 human-judged queries and machine grades on %4: %5</source>
        <translation>
            <numerusform>借助机器评判的估计（%1），%2% 区间，基于 %3 个人工评判的查询与 %4 个查询上的机器评分：%5</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FetchDialog</name>
    <message>
        <source>Fetch from a search engine</source>
        <extracomment>The text of a new endpoint file: a generic JSON API (docs/live-engine.md has one per engine). Answers quoted in a failure: the first this many characters. Failures listed in the report; the rest are counted.</extracomment>
        <translation>从搜索引擎获取</translation>
    </message>
    <message>
        <source>a new endpoint file (not saved yet)</source>
        <translation>新的端点文件（尚未保存）</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>TREC topics, cran.qry or a queries TSV</source>
        <translation>TREC 主题、cran.qry 或查询 TSV</translation>
    </message>
    <message>
        <source>Endpoint file:</source>
        <translation>端点文件：</translation>
    </message>
    <message>
        <source>Queries file:</source>
        <translation>查询文件：</translation>
    </message>
    <message>
        <source>Run name:</source>
        <translation>运行名称：</translation>
    </message>
    <message>
        <source>Hits per query (K):</source>
        <translation>每个查询的结果数 (K)：</translation>
    </message>
    <message>
        <source>Requests at once:</source>
        <translation>同时请求数：</translation>
    </message>
    <message>
        <source>a query (empty: the first of the queries file)</source>
        <translation>一个查询（留空：查询文件中的第一个）</translation>
    </message>
    <message>
        <source>&amp;Try one query</source>
        <translation>试发一个查询(&amp;T)</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Fetched at (UTC)</source>
        <translation>获取时间 (UTC)</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>&amp;Fetch</source>
        <translation>获取(&amp;F)</translation>
    </message>
    <message>
        <source>Endpoint file</source>
        <translation>端点文件</translation>
    </message>
    <message>
        <source>Endpoint files (*.toml);;All files (*)</source>
        <translation>端点文件 (*.toml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Queries file</source>
        <translation>查询文件</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Save the endpoint file</source>
        <translation>保存端点文件</translation>
    </message>
    <message>
        <source>The endpoint file could not be saved: %1</source>
        <translation>无法保存端点文件：%1</translation>
    </message>
    <message>
        <source>A new snapshot: the current run is kept as “%1”.</source>
        <translation>新的快照：当前运行将保留为“%1”。</translation>
    </message>
    <message>
        <source>A run imported from a file has this name: Fetch asks to replace it.</source>
        <translation>已有一个从文件导入的同名运行：获取时会询问是否替换它。</translation>
    </message>
    <message>
        <source>Snapshots of %1</source>
        <translation>%1 的快照</translation>
    </message>
    <message>
        <source>%1 (current)</source>
        <translation>%1（当前）</translation>
    </message>
    <message>
        <source>Type a query, or choose the queries file to try its first.</source>
        <translation>请输入一个查询，或选择查询文件以试发其中第一个。</translation>
    </message>
    <message>
        <source>Sending one query…</source>
        <translation>正在发送一个查询…</translation>
    </message>
    <message numerus="yes">
        <source>Query %1: %n hit(s) mapped.</source>
        <translation>
            <numerusform>查询 %1：映射了 %n 个结果。</numerusform>
        </translation>
    </message>
    <message>
        <source>The engine answered %1: %2</source>
        <translation>搜索引擎返回 %1：%2</translation>
    </message>
    <message>
        <source>The engine answered %1.</source>
        <translation>搜索引擎返回 %1。</translation>
    </message>
    <message>
        <source>Nothing was sent: %1</source>
        <translation>未发送任何请求：%1</translation>
    </message>
    <message>
        <source>A file could not be read: %1</source>
        <translation>无法读取文件：%1</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Choose the queries file and give the run a name.</source>
        <translation>请选择查询文件并为运行命名。</translation>
    </message>
    <message>
        <source>Fetching %1…</source>
        <translation>正在获取 %1…</translation>
    </message>
    <message>
        <source>Cancelled. The lists fetched are kept: Fetch again sends the rest.</source>
        <translation>已取消。已获取的列表会保留：再次获取只发送其余查询。</translation>
    </message>
    <message>
        <source>Run exists</source>
        <translation>运行已存在</translation>
    </message>
    <message>
        <source>The database holds a run named “%1” imported from a file. Replace its results with the engine&apos;s? (It is not kept as a snapshot.)</source>
        <translation>数据库中已有一个从文件导入的运行“%1”。要用搜索引擎的结果替换它吗？（它不会保留为快照。）</translation>
    </message>
    <message>
        <source>&amp;Replace “%1”</source>
        <translation>替换“%1”(&amp;R)</translation>
    </message>
    <message numerus="yes">
        <source>Run “%1” stored: %n ranked list(s).</source>
        <translation>
            <numerusform>运行“%1”已保存：%n 个排序列表。</numerusform>
        </translation>
    </message>
    <message>
        <source>The earlier fetch is kept as “%1”.</source>
        <translation>之前的获取结果保留为“%1”。</translation>
    </message>
    <message numerus="yes">
        <source>%n request(s) failed, left out:</source>
        <translation>
            <numerusform>%n 个请求失败，已略去：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Queries: %1; %n request(s) failed, so nothing was stored. The lists fetched are kept: Fetch again sends only the missing queries.</source>
        <translation>
            <numerusform>查询：%1；%n 个请求失败，因此未保存任何内容。已获取的列表会保留：再次获取只发送缺少的查询。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… 还有 %n 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>GradeLegend</name>
    <message>
        <source>Press %1: %2</source>
        <translation>按 %1：%2</translation>
    </message>
</context>
<context>
    <name>Grader</name>
    <message>
        <source>Query complete: ← → to change a grade, U for the next unjudged</source>
        <translation>查询已完成：← → 修改评分，U：下一个未标注</translation>
    </message>
    <message>
        <source>Grade %1 “%2”</source>
        <translation>评级 %1“%2”</translation>
    </message>
    <message>
        <source>%1 · query complete (U: next unjudged)</source>
        <translation>%1 · 查询已完成（U：下一个未标注）</translation>
    </message>
    <message>
        <source>Clear grade “%1”</source>
        <translation>清除等级“%1”</translation>
    </message>
    <message>
        <source>Grade the document first: a note belongs to a grade.</source>
        <translation>请先为文档评级：备注附属于等级。</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Note on “%1”:</source>
        <translation>“%1”的备注：</translation>
    </message>
    <message>
        <source>Edit note “%1”</source>
        <translation>编辑备注“%1”</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <source>Not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <source>Saving the grade</source>
        <translation>保存等级</translation>
    </message>
    <message>
        <source>Undoing</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Saved ✓ %1</source>
        <translation>已保存 ✓ %1</translation>
    </message>
</context>
<context>
    <name>Grades</name>
    <message>
        <source>irrelevant</source>
        <extracomment>trec_eval&apos;s &quot;judged non-relevant&quot;: the lowest grade an imported judgment may keep (gain 0 under every gain setting; an annotator grades 0-4 only). The name of each grade an annotator gives (English; the GUI shows it translated in context &quot;Grades&quot;, the CLI as it is).</extracomment>
        <translation>完全不相关</translation>
    </message>
    <message>
        <source>marginal</source>
        <translation>稍微相关</translation>
    </message>
    <message>
        <source>relevant</source>
        <translation>相关</translation>
    </message>
    <message>
        <source>highly relevant</source>
        <translation>非常相关</translation>
    </message>
    <message>
        <source>perfect</source>
        <translation>完美匹配</translation>
    </message>
    <message>
        <source>Not judged</source>
        <extracomment>fill colour of each grade&apos;s chip: grey, then yellow to dark green (ColorBrewer RdYlGn / Greens) digit colour on each chip (contrast with the fill ≥ 4.5) a hollow chip for &quot;not judged&quot;</extracomment>
        <translation>未标注</translation>
    </message>
    <message>
        <source>Judged non-relevant (−1)</source>
        <translation>判定为不相关（−1）</translation>
    </message>
</context>
<context>
    <name>HistogramChart</name>
    <message>
        <source>Distribution of nDCG</source>
        <translation>nDCG 分布</translation>
    </message>
    <message>
        <source>nDCG@%1 (bins of 0.1, lower bound shown)</source>
        <translation>nDCG@%1（区间宽 0.1，显示下界）</translation>
    </message>
    <message>
        <source>queries</source>
        <translation>查询数</translation>
    </message>
</context>
<context>
    <name>HistoryModel</name>
    <message>
        <source>When (UTC)</source>
        <translation>时间（UTC）</translation>
    </message>
    <message>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>By</source>
        <translation>操作者</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变更</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>adjudication</source>
        <translation>裁定</translation>
    </message>
    <message>
        <source>grade of %1</source>
        <translation>%1 的等级</translation>
    </message>
</context>
<context>
    <name>ItemGradesModel</name>
    <message>
        <source>Annotator</source>
        <translation>标注者</translation>
    </message>
    <message>
        <source>Grade</source>
        <translation>等级</translation>
    </message>
    <message>
        <source>Final (adjudicated)</source>
        <translation>最终（已裁定）</translation>
    </message>
</context>
<context>
    <name>JudgeDialog</name>
    <message>
        <source>Machine judge</source>
        <translation>机器评审</translation>
    </message>
    <message>
        <source>Prompt of one item</source>
        <translation>一个条目的提示词</translation>
    </message>
    <message>
        <source>Preview to see the requests a run would make.</source>
        <translation>预览以查看一次运行将发出的请求。</translation>
    </message>
    <message>
        <source>&amp;Preview and estimate</source>
        <translation>预览并估算(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel run</source>
        <translation>取消运行(&amp;C)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Model source</source>
        <translation>模型来源</translation>
    </message>
    <message>
        <source>OpenAI-compatible server</source>
        <translation>OpenAI 兼容服务器</translation>
    </message>
    <message>
        <source>Local model (offline)</source>
        <translation>本地模型（离线）</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>Server URL</source>
        <translation>服务器 URL</translation>
    </message>
    <message>
        <source>the model&apos;s name on the server</source>
        <translation>服务器上的模型名称</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>UMBRELA (Upadhyay et al. 2024)</source>
        <translation>UMBRELA（Upadhyay 等，2024）</translation>
    </message>
    <message>
        <source>Thomas et al. 2023</source>
        <translation>Thomas 等，2023</translation>
    </message>
    <message>
        <source>From a file…</source>
        <translation>从文件…</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>模板</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>concurrent</source>
        <translation>并发</translation>
    </message>
    <message>
        <source>at most requests</source>
        <translation>最多请求数</translation>
    </message>
    <message>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>pool depth</source>
        <translation>标注池深度</translation>
    </message>
    <message>
        <source>Items: the pool of</source>
        <translation>条目：以下运行的标注池</translation>
    </message>
    <message>
        <source>Templates (*.toml);;All files (*)</source>
        <translation>模板 (*.toml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Not done: %1</source>
        <translation>未完成：%1</translation>
    </message>
    <message>
        <source>(nothing left to grade)</source>
        <translation>（没有需要评分的条目）</translation>
    </message>
    <message>
        <source>%1 items to grade (%2 already graded with this template and model); %3 requests, about %4 prompt + at most %5 completion tokens. Template %6.</source>
        <translation>待评分条目 %1 个（已用此模板和模型评分 %2 个）；请求 %3 次，约 %4 个提示词 token + 最多 %5 个补全 token。模板 %6。</translation>
    </message>
    <message>
        <source>%1 of %2 items; %3 requests, %4 tokens; %5 unparsed, %6 failed; ETA %7</source>
        <translation>%1 / %2 个条目；请求 %3 次，token %4 个；无法解析 %5 个，失败 %6 个；预计剩余 %7</translation>
    </message>
    <message>
        <source>Cancelled: %1 answers stored; run again to continue.</source>
        <translation>已取消：已保存 %1 个回答；再次运行即可继续。</translation>
    </message>
    <message>
        <source>Done: %1 graded, %2 unparsed, %3 failed; %4 requests.</source>
        <translation>完成：已评分 %1 个，无法解析 %2 个，失败 %3 个；请求 %4 次。</translation>
    </message>
    <message>
        <source>Stopped: %1</source>
        <translation>已停止：%1</translation>
    </message>
    <message>
        <source>Labels of more than one model: %1</source>
        <translation>标签来自多个模型：%1</translation>
    </message>
</context>
<context>
    <name>JudgeEnteredDialog</name>
    <message>
        <source>Judge what entered</source>
        <translation>评判新进入的文档</translation>
    </message>
    <message>
        <source>A campaign of the %1 documents that entered B&apos;s top K unjudged.</source>
        <translation>由进入 B 前 K 名且未评判的 %1 篇文档组成的评判活动。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>names separated by spaces or commas</source>
        <translation>名字，用空格或逗号分隔</translation>
    </message>
    <message>
        <source>Annotators</source>
        <translation>评判者</translation>
    </message>
</context>
<context>
    <name>JudgeMenu</name>
    <message>
        <source>&amp;Machine judge…</source>
        <translation>机器评审(&amp;M)…</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>The language changes when NDCG Studio is started again.</source>
        <extracomment>the interface languages: code and name, each in its own language (the menu shows these) the context of this module&apos;s own messages in the .ts files</extracomment>
        <translation>语言将在下次启动 NDCG Studio 时生效。</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
</context>
<context>
    <name>LazyView</name>
    <message>
        <source>Loading…</source>
        <extracomment>changes within this many milliseconds of each other cause one reload what :meth:`LazyView.save_state` saves the ``saveState()`` of</extracomment>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Loading</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>No database is open.</source>
        <translation>没有打开的数据库。</translation>
    </message>
</context>
<context>
    <name>LeaveOneOutModel</name>
    <message>
        <source>Annotator</source>
        <translation>标注者</translation>
    </message>
    <message>
        <source>α without</source>
        <translation>去掉后的 α</translation>
    </message>
    <message>
        <source>Δ vs all</source>
        <translation>与全体之差 Δ</translation>
    </message>
    <message>
        <source>Items left</source>
        <translation>剩余条目</translation>
    </message>
    <message>
        <source>Judgments</source>
        <translation>标注</translation>
    </message>
    <message>
        <source>Documents still graded by two or more annotators without this one</source>
        <translation>去掉此标注者后仍有两位或以上标注者评过的文档</translation>
    </message>
    <message>
        <source>Grades this annotator gave</source>
        <translation>此标注者给出的等级</translation>
    </message>
    <message>
        <source>Positive Δ: agreement rises without this annotator</source>
        <translation>Δ 为正：去掉此标注者后一致性上升</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Annotate</source>
        <extracomment>the tabs, in order: (title, function building the view as ``factory(context, parent)``); the title is the English key of :meth:`MainWindow.view`, the tab shows it translated in context &quot;MainWindow&quot;</extracomment>
        <translation>标注</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>评审</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>一致性</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Stability</source>
        <translation>稳定性</translation>
    </message>
    <message>
        <source>&amp;Annotate</source>
        <extracomment>the view built with the window (the others: when first shown) View ▸ &lt;tab&gt; menu entries, with their mnemonics</extracomment>
        <translation>标注(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Review</source>
        <translation>评审(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Agreement</source>
        <translation>一致性(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>比较(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Stability</source>
        <translation>稳定性(&amp;S)</translation>
    </message>
    <message>
        <source>NDCG Studio</source>
        <translation>NDCG Studio</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <extracomment>the views built so far, by title (:meth:`view` builds the others) whether the window&apos;s saved state is restored: a view built later restores its own Annotate&apos;s campaign panel (``install_campaigns`` of :mod:`~.views.campaign.panel`)</extracomment>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Annotator</source>
        <translation>标注者(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;New database…</source>
        <translation>新建数据库(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Open database…</source>
        <translation>打开数据库(&amp;O)…</translation>
    </message>
    <message>
        <source>Connect to &amp;server…</source>
        <translation>连接服务器(&amp;S)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Fetch from a search engine…</source>
        <translation>从搜索引擎获取(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Scoring &amp;settings…</source>
        <translation>计分设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Next tab</source>
        <translation>下一个标签页(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous tab</source>
        <translation>上一个标签页(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Switch annotator…</source>
        <translation>切换标注者(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Pool depth…</source>
        <translation>标注池深度(&amp;P)…</translation>
    </message>
    <message>
        <source>Pool &amp;order</source>
        <translation>标注池顺序(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Shuffled</source>
        <translation>随机(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;What decides the Compare pair first</source>
        <translation>先标注决定“比较”中那一对的文档(&amp;W)</translation>
    </message>
    <message>
        <source>Judge first the documents whose grade can change which of Compare&apos;s runs A and B is better (ab pooling); the runs are not shown in Annotate</source>
        <translation>先标注其等级能改变“比较”中运行 A 与 B 孰优的文档（ab 池化）；“标注”中不显示运行</translation>
    </message>
    <message>
        <source>Load the Cranfield &amp;demo</source>
        <translation>加载 Cranfield 演示(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;About NDCG Studio</source>
        <translation>关于 NDCG Studio(&amp;A)</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Open a database first (File ▸ Open database…).</source>
        <translation>请先打开一个数据库（文件 ▸ 打开数据库…）。</translation>
    </message>
    <message>
        <source>Welcome to NDCG Studio</source>
        <translation>欢迎使用 NDCG Studio</translation>
    </message>
    <message>
        <source>Your name as an annotator (your grades are stored under it):</source>
        <translation>您作为标注者的名字（您的等级以此名保存）：</translation>
    </message>
    <message>
        <source>Annotator</source>
        <translation>标注者</translation>
    </message>
    <message>
        <source>Open a database first.</source>
        <translation>请先打开一个数据库。</translation>
    </message>
    <message>
        <source>Switch annotator</source>
        <translation>切换标注者</translation>
    </message>
    <message>
        <source>Annotate as (pick or type a new name):</source>
        <translation>以此身份标注（选择或输入新名字）：</translation>
    </message>
    <message>
        <source>Fetch</source>
        <translation>获取</translation>
    </message>
    <message>
        <source>A database file has no logins: whoever uses it can grade under any name. On a team server (File ▸ Connect to server…) each annotator is a login.</source>
        <translation>数据库文件没有登录账号：任何使用它的人都可以用任意名字评分。在团队服务器上（文件 ▸ 连接服务器…），每个标注者对应一个登录账号。</translation>
    </message>
    <message>
        <source>There is no annotator called %1 yet.

Create %1 and grade as %1?</source>
        <translation>还没有名为 %1 的标注者。

创建 %1 并以 %1 的身份评分吗？</translation>
    </message>
    <message>
        <source>Choosing the annotator</source>
        <translation>选择标注者</translation>
    </message>
    <message>
        <source>Pool depth</source>
        <translation>标注池深度</translation>
    </message>
    <message>
        <source>Judge every run&apos;s top D documents of each query, D =</source>
        <translation>标注每个查询中每个运行的前 D 个文档，D =</translation>
    </message>
    <message>
        <source>Annotate pool order: shuffled</source>
        <translation>标注池顺序：随机</translation>
    </message>
    <message>
        <source>Pick runs A and B in Compare first</source>
        <translation>请先在“比较”中选择运行 A 和 B</translation>
    </message>
    <message>
        <source>About NDCG Studio</source>
        <translation>关于 NDCG Studio</translation>
    </message>
    <message>
        <source>&lt;h3&gt;NDCG Studio %1&lt;/h3&gt;&lt;p&gt;Judge search results on a 0–4 scale and score runs with NDCG@K, every part visible; inter-annotator agreement built in.&lt;/p&gt;&lt;p&gt;Logs: %2&lt;/p&gt;</source>
        <translation>&lt;h3&gt;NDCG Studio %1&lt;/h3&gt;&lt;p&gt;以 0–4 等级标注搜索结果，并用 NDCG@K 为运行计分，每一步都清晰可见；内置标注者间一致性。&lt;/p&gt;&lt;p&gt;日志：%2&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>MeansTableModel</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>mean nDCG@%1 under %2 (rank among the runs)</source>
        <translation>按 %2 的平均 nDCG@%1（在各运行中的名次）</translation>
    </message>
</context>
<context>
    <name>NoteDialog</name>
    <message>
        <source>Save the note (Ctrl+Enter)</source>
        <translation>保存备注（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Ctrl+Enter saves · Esc cancels</source>
        <translation>Ctrl+Enter 保存 · Esc 取消</translation>
    </message>
</context>
<context>
    <name>PairMatrix</name>
    <message>
        <source>Holm–Bonferroni over the pairs with %1</source>
        <extracomment>role returning the (row run, column run) names of a cell role returning the corrected p-value of a cell (NaN on the diagonal and unfilled cells) the smallest Δ the paired t-test detects (NaN: none can be stated); the view words it</extracomment>
        <translation>对含 %1 的各对做 Holm–Bonferroni 校正</translation>
    </message>
    <message>
        <source>randomised Tukey HSD over all %1 pairs</source>
        <translation>对全部 %1 对做随机化 Tukey HSD</translation>
    </message>
    <message>
        <source>one pair: none needed</source>
        <translation>只有一对：无需校正</translation>
    </message>
</context>
<context>
    <name>PairMatrixModel</name>
    <message>
        <source>%1: mean nDCG@%2 %3</source>
        <translation>%1：平均 nDCG@%2 %3</translation>
    </message>
    <message>
        <source>%1: mean nDCG@%2 %3 over %4 queries</source>
        <translation>%1：%4 个查询上的平均 nDCG@%2 %3</translation>
    </message>
    <message>
        <source>Not compared: choose no baseline, or one of these runs as the baseline</source>
        <translation>未比较：请不选基线，或选择这两个运行之一作为基线</translation>
    </message>
    <message>
        <source>%1 − %2: Δ = %3 (95% CI %4 to %5), effect size %6
p = %7 (paired randomization test), corrected p = %8 (%9)
Click to see the per-query deltas of this pair</source>
        <translation>%1 − %2：Δ = %3（95% 置信区间 %4 至 %5），效应量 %6
p = %7（配对随机化检验），校正后 p = %8（%9）
点击查看这一对的逐查询差值</translation>
    </message>
</context>
<context>
    <name>PairsTableModel</name>
    <message>
        <source>Set A</source>
        <translation>等级组 A</translation>
    </message>
    <message>
        <source>Set B</source>
        <translation>等级组 B</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Order flips</source>
        <translation>顺序反转</translation>
    </message>
    <message>
        <source>Significance flips</source>
        <translation>显著性反转</translation>
    </message>
    <message>
        <source>Run pairs whose paired randomization test says different things under the two grade sets (significant under one, not under the other, or opposite)</source>
        <translation>在两组等级下配对随机化检验结论不同的运行对（一组下显著、另一组下不显著，或方向相反）</translation>
    </message>
</context>
<context>
    <name>PairwiseKappaModel</name>
    <message>
        <source>n/a</source>
        <extracomment>more annotators than this: cells show the value only (no item count)</extracomment>
        <translation>无</translation>
    </message>
    <message>
        <source>undefined</source>
        <translation>无定义</translation>
    </message>
    <message>
        <source>%1 vs %2: %3 = %4 on %5 both graded</source>
        <translation>%1 对 %2：%3 = %4，基于双方都评过的 %5</translation>
    </message>
</context>
<context>
    <name>PerQueryAlphaModel</name>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Graded 2+</source>
        <translation>评过 2 次以上</translation>
    </message>
    <message>
        <source>Judgments</source>
        <translation>标注</translation>
    </message>
    <message>
        <source>Disputed</source>
        <translation>有争议</translation>
    </message>
</context>
<context>
    <name>PoolModel</name>
    <message>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Grade</source>
        <translation>等级</translation>
    </message>
</context>
<context>
    <name>PoolPanel</name>
    <message>
        <source>Pool</source>
        <translation>标注池</translation>
    </message>
</context>
<context>
    <name>QueryDetailDialog</name>
    <message>
        <source>Query detail</source>
        <translation>查询详情</translation>
    </message>
</context>
<context>
    <name>QueryDetailView</name>
    <message>
        <source>source %1</source>
        <extracomment>the run table&apos;s Title column: its index and the least width it keeps</extracomment>
        <translation>来源 %1</translation>
    </message>
    <message>
        <source>nDCG@%1 by annotator: %2 — spread %3</source>
        <translation>各标注者的 nDCG@%1：%2 — 极差 %3</translation>
    </message>
    <message>
        <source>⚠ disputed: the annotators&apos; grades differ by 2 or more  ·  &lt;i&gt;unjudged&lt;/i&gt;: nobody graded the document, gain 0</source>
        <translation>⚠ 有争议：标注者的等级相差 2 级或以上  ·  &lt;i&gt;未标注&lt;/i&gt;：没有人为该文档评分，增益为 0</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Ideal list</source>
        <translation>理想排序</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>Query %1 · run %2</source>
        <translation>查询 %1 · 运行 %2</translation>
    </message>
    <message>
        <source>Could not compute the breakdown: %1</source>
        <translation>无法计算明细：%1</translation>
    </message>
    <message>
        <source>How it was computed: %1</source>
        <translation>计算方式：%1</translation>
    </message>
    <message>
        <source>Run %1: top %2 of nDCG@%3</source>
        <translation>运行 %1：nDCG@%3 的前 %2 个</translation>
    </message>
    <message numerus="yes">
        <source>Ideal list: the %n best judged document(s)</source>
        <translation>
            <numerusform>理想排序：已标注文档中最好的 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ideal list: the run&apos;s %n best returned document(s)</source>
        <translation>
            <numerusform>理想排序：该运行返回的文档中最好的 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>undefined (the query has no judgments)</source>
        <translation>无定义（该查询没有标注）</translation>
    </message>
    <message>
        <source>0 (IDCG = 0: no judged document has a gain)</source>
        <translation>0（IDCG = 0：没有已标注文档有增益）</translation>
    </message>
    <message>
        <source>Query detail</source>
        <translation>查询详情</translation>
    </message>
    <message>
        <source>Double-click a row of the Review table to see its breakdown.</source>
        <translation>双击“评审”表格中的一行查看其明细。</translation>
    </message>
</context>
<context>
    <name>QueryListPanel</name>
    <message>
        <source>Queries</source>
        <extracomment>milliseconds of typing in the filter coalesced into one filtering of the list</extracomment>
        <translation>查询</translation>
    </message>
    <message>
        <source>Filter by id or text…</source>
        <translation>按编号或文本筛选…</translation>
    </message>
    <message>
        <source>Hide complete queries</source>
        <translation>隐藏已完成的查询</translation>
    </message>
    <message>
        <source>Next unjudged</source>
        <translation>下一个未标注</translation>
    </message>
    <message>
        <source>Go to the next document you have not judged (U, Ctrl+U)</source>
        <translation>转到下一个您尚未标注的文档（U，Ctrl+U）</translation>
    </message>
</context>
<context>
    <name>QueryProgressModel</name>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Judged</source>
        <translation>已标注</translation>
    </message>
    <message>
        <source>Pooled documents you have judged / pool size</source>
        <extracomment>(judged, pool size) of the row, for the progress delegate</extracomment>
        <translation>您已标注的标注池文档数 / 标注池大小</translation>
    </message>
    <message>
        <source>Counting the pool…</source>
        <translation>正在统计文档池…</translation>
    </message>
    <message>
        <source>No run returned documents for this query: nothing to judge</source>
        <translation>没有运行为此查询返回文档：无可标注内容</translation>
    </message>
    <message>
        <source>%1 of %2 pooled documents judged</source>
        <translation>标注池 %2 个文档中已标注 %1 个</translation>
    </message>
</context>
<context>
    <name>ReviewFilterBar</name>
    <message>
        <source>Score against one judgment source&apos;s grades only: its annotators&apos; grades combined by the consensus rule, no adjudication (like `score --source`); &apos;humans&apos; are the annotators of no source. All sources: the usual consensus of every annotator.</source>
        <extracomment>the source filter&apos;s tooltip: what choosing a source means</extracomment>
        <translation>只按一个标注来源的等级计分：其标注者的等级按共识规则合并，不含裁定（同 `score --source`）；“humans”指不属于任何来源的标注者。所有来源：所有标注者的通常共识。</translation>
    </message>
    <message>
        <source>Filter by query id or text…</source>
        <translation>按查询编号或文本筛选…</translation>
    </message>
    <message>
        <source>All runs</source>
        <translation>所有运行</translation>
    </message>
    <message>
        <source>All bands</source>
        <translation>所有等级</translation>
    </message>
    <message>
        <source>No band (no judgments)</source>
        <translation>无等级（无标注）</translation>
    </message>
    <message>
        <source>All sources</source>
        <translation>所有来源</translation>
    </message>
    <message>
        <source>Disputed only</source>
        <translation>仅争议</translation>
    </message>
    <message>
        <source>Queries with a document whose grades differ by 2 or more</source>
        <translation>含有等级相差 2 或更多的文档的查询</translation>
    </message>
    <message>
        <source>Judged@K below</source>
        <translation>已评@K 低于</translation>
    </message>
    <message>
        <source>Source: %1</source>
        <translation>来源：%1</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %2 row(s)</source>
        <translation>
            <numerusform>%1 / %2 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 row(s)</source>
        <translation>
            <numerusform>%1 行</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReviewText</name>
    <message numerus="yes">
        <source>Nothing to score yet: %1 judgment(s), but no run.
Import a run (File ▸ Import… ▸ A run) to score it.</source>
        <translation>
            <numerusform>尚无可计分内容：有 %1 条标注，但没有运行。
导入一个运行（文件 ▸ 导入… ▸ 运行）即可计分。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Nothing to score yet: %1 run(s), but no judgments.
Judge documents in Annotate, or import judgments (File ▸ Import…).</source>
        <translation>
            <numerusform>尚无可计分内容：有 %1 个运行，但没有标注。
请在“标注”中标注文档，或导入标注（文件 ▸ 导入…）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReviewView</name>
    <message>
        <source>Scoring…</source>
        <translation>正在计分…</translation>
    </message>
    <message>
        <source>Scoring failed</source>
        <translation>计分失败</translation>
    </message>
    <message>
        <source>Scoring the runs</source>
        <translation>为运行计分</translation>
    </message>
    <message>
        <source>Intervals and agreement…</source>
        <translation>区间与一致性…</translation>
    </message>
    <message>
        <source>No database is open.
Use File ▸ Open database… or start with the demo.</source>
        <translation>没有打开的数据库。
请使用 文件 ▸ 打开数据库…，或从演示开始。</translation>
    </message>
    <message>
        <source>Scoring settings…</source>
        <translation>计分设置…</translation>
    </message>
    <message>
        <source>Bands</source>
        <translation>等级</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>Double-click or press Enter for the per-rank breakdown</source>
        <translation>双击或按 Enter 查看逐名次明细</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>nDCG vs nDCG′ (unjudged documents)</source>
        <translation>nDCG 与 nDCG′（未标注文档）</translation>
    </message>
    <message>
        <source>No estimate: %1</source>
        <translation>无估计：%1</translation>
    </message>
    <message>
        <source>%1 · grades of source %2 only</source>
        <translation>%1 · 仅来源 %2 的等级</translation>
    </message>
    <message>
        <source>%1 without judgments (no nDCG)</source>
        <translation>%1 个无标注（无 nDCG）</translation>
    </message>
    <message>
        <source>%1 not returned (scored 0)</source>
        <translation>%1 个未返回（计 0 分）</translation>
    </message>
    <message>
        <source>%1 with IDCG = 0</source>
        <translation>%1 个 IDCG = 0</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Every query has judgments and a result in every run.</source>
        <translation>每个查询都有标注，且在每个运行中都有结果。</translation>
    </message>
    <message>
        <source>%1.</source>
        <translation>%1。</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Query %1 · %2 — Query detail</source>
        <translation>查询 %1 · %2 — 查询明细</translation>
    </message>
    <message>
        <source>Nothing to score yet: no query has both results in a run and judgments.
Judge the runs&apos; documents in Annotate, or import judgments for their queries.</source>
        <translation>尚无可计分内容：没有查询同时有运行结果和标注。
请在“标注”中标注运行返回的文档，或为这些查询导入标注。</translation>
    </message>
    <message>
        <source>Nothing to score yet: no run and no judgments.
Import a run and judgments (File ▸ Import…), or judge a few documents in Annotate.</source>
        <translation>尚无可计分内容：没有运行，也没有标注。
请导入运行和标注（文件 ▸ 导入…），或在“标注”中标注几个文档。</translation>
    </message>
    <message>
        <source>Nothing to score yet.
Import a run and judgments (File ▸ Import…), or judge a few documents in Annotate.</source>
        <translation>尚无可计分内容。
请导入运行和标注（文件 ▸ 导入…），或在“标注”中标注几个文档。</translation>
    </message>
</context>
<context>
    <name>RunNameDialog</name>
    <message>
        <source>Run exists</source>
        <translation>运行已存在</translation>
    </message>
    <message>
        <source>The database holds a run named “%1” already. Import %2 as a new run under another name, or replace that run&apos;s results with this file&apos;s?</source>
        <translation>数据库中已有名为“%1”的运行。将 %2 以另一个名称导入为新运行，还是用此文件的结果替换该运行的结果？</translation>
    </message>
    <message>
        <source>Name of the new run:</source>
        <translation>新运行的名称：</translation>
    </message>
    <message>
        <source>Import as &amp;new run</source>
        <translation>导入为新运行(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Replace “%1”</source>
        <translation>替换“%1”(&amp;R)</translation>
    </message>
</context>
<context>
    <name>RunSummaryModel</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Mean nDCG</source>
        <translation>平均 nDCG</translation>
    </message>
    <message>
        <source>95% CI</source>
        <translation>95% 置信区间</translation>
    </message>
    <message>
        <source>Queries</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Unjudged</source>
        <translation>未标注</translation>
    </message>
    <message>
        <source>Not returned</source>
        <translation>未返回</translation>
    </message>
    <message>
        <source>Mean nDCG@%1</source>
        <translation>平均 nDCG@%1</translation>
    </message>
    <message>
        <source>95% percentile bootstrap interval of the mean (queries resampled 10,000 times)</source>
        <translation>平均值的 95% 百分位 bootstrap 区间（对查询重抽样 10,000 次）</translation>
    </message>
    <message>
        <source>Queries with judgments: the ones the mean covers</source>
        <translation>有标注的查询：平均值所涵盖的查询</translation>
    </message>
    <message>
        <source>Queries without any judgment: no nDCG, left out of the mean</source>
        <translation>没有任何标注的查询：无 nDCG，不计入平均值</translation>
    </message>
    <message>
        <source>Judged queries the run returned nothing for: they score 0</source>
        <translation>已标注但运行未返回任何结果的查询：计 0 分</translation>
    </message>
    <message>
        <source>Mean over %1 judged queries; interval being computed…</source>
        <translation>%1 个已标注查询上的平均值；区间计算中…</translation>
    </message>
    <message>
        <source>Mean over %1 judged queries; 95% interval [%2, %3]</source>
        <translation>%1 个已标注查询上的平均值；95% 区间 [%2, %3]</translation>
    </message>
</context>
<context>
    <name>ScoresTableModel</name>
    <message>
        <source>Query</source>
        <extracomment>judged@K below this counts as low coverage by default</extracomment>
        <translation>查询</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Band</source>
        <translation>等级</translation>
    </message>
    <message>
        <source>Judged@%1</source>
        <translation>已评@%1</translation>
    </message>
    <message>
        <source>Annotators</source>
        <translation>标注者</translation>
    </message>
    <message>
        <source>α (query)</source>
        <translation>α（查询）</translation>
    </message>
    <message>
        <source>Disputed</source>
        <translation>有争议</translation>
    </message>
    <message>
        <source>Query text</source>
        <translation>查询文本</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>极差</translation>
    </message>
    <message>
        <source>DCG@K / IDCG@K; empty when the query has no judgments</source>
        <translation>DCG@K / IDCG@K；查询没有标注时为空</translation>
    </message>
    <message>
        <source>Quality band of nDCG (thresholds in Scoring settings)</source>
        <translation>nDCG 的质量等级（阈值见计分设置）</translation>
    </message>
    <message>
        <source>Discounted cumulative gain of the run&apos;s top K (gain units)</source>
        <translation>运行前 K 个结果的折损累积增益（增益单位）</translation>
    </message>
    <message>
        <source>DCG of the ideal ordering of the judged documents, top K (gain units)</source>
        <translation>已标注文档理想排序的前 K 个的 DCG（增益单位）</translation>
    </message>
    <message>
        <source>Share of the run&apos;s top K documents that have a judgment</source>
        <translation>运行前 K 个文档中已有标注的比例</translation>
    </message>
    <message>
        <source>Annotators who judged this query</source>
        <translation>标注过此查询的标注者</translation>
    </message>
    <message>
        <source>Krippendorff&apos;s alpha over this query&apos;s documents; empty when undefined</source>
        <translation>此查询文档上的 Krippendorff&apos;s α；无定义时为空</translation>
    </message>
    <message>
        <source>Documents whose annotators&apos; grades differ by 2 or more</source>
        <translation>标注者等级相差 2 或更多的文档</translation>
    </message>
    <message>
        <source>Max − min of nDCG@K under each annotator&apos;s own grades and each source&apos;s: the queries whose score depends most on who judged</source>
        <translation>按各标注者自己的等级和各来源的等级计算的 nDCG@K 的最大值 − 最小值：得分最取决于由谁标注的查询</translation>
    </message>
    <message>
        <source>No judgments for this query: nDCG is undefined and left out of means.</source>
        <translation>此查询没有标注：nDCG 无定义，不计入平均值。</translation>
    </message>
    <message>
        <source>IDCG = 0 (no judged document has a gain): nDCG reported as 0.</source>
        <translation>IDCG = 0（没有已标注文档有增益）：nDCG 记为 0。</translation>
    </message>
    <message>
        <source>nDCG@%1 = DCG %2 / IDCG %3 = %4
Double-click for the per-rank breakdown.</source>
        <translation>nDCG@%1 = DCG %2 / IDCG %3 = %4
双击查看逐名次明细。</translation>
    </message>
    <message>
        <source>The run returned no document for this query.</source>
        <translation>该运行没有为此查询返回文档。</translation>
    </message>
    <message>
        <source>%1 of the top %2 documents are judged</source>
        <translation>前 %2 个文档中已标注 %1</translation>
    </message>
    <message>
        <source>Undefined: fewer than two annotators graded the same documents of this query.</source>
        <translation>无定义：为此查询的相同文档评级的标注者少于两位。</translation>
    </message>
</context>
<context>
    <name>ScoringSettings</name>
    <message>
        <source>Linear: gain = grade</source>
        <extracomment>settings keys whose change requires rescoring a typed number applies this long after the last keystroke</extracomment>
        <translation>线性：增益 = 等级</translation>
    </message>
    <message>
        <source>Exponential: gain = 2^grade − 1</source>
        <translation>指数：增益 = 2^等级 − 1</translation>
    </message>
    <message>
        <source>All judged documents of the query (trec_eval)</source>
        <translation>该查询的所有已标注文档（trec_eval）</translation>
    </message>
    <message>
        <source>Only the documents the run returned (scikit-learn)</source>
        <translation>仅该运行返回的文档（scikit-learn）</translation>
    </message>
    <message>
        <source>Mean of the annotators&apos; grades</source>
        <translation>标注者等级的平均值</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>Majority (most frequent grade)</source>
        <translation>多数（出现最多的等级）</translation>
    </message>
    <message>
        <source>Maximum (most lenient)</source>
        <translation>最大值（最宽松）</translation>
    </message>
    <message>
        <source>Minimum (strictest)</source>
        <translation>最小值（最严格）</translation>
    </message>
    <message>
        <source>mean</source>
        <extracomment>the consensus methods&apos; short names in the sentences below (the CLI&apos;s words in English)</extracomment>
        <translation>平均值</translation>
    </message>
    <message>
        <source>median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>majority</source>
        <translation>多数</translation>
    </message>
    <message>
        <source>max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>gain = grade</source>
        <translation>增益 = 等级</translation>
    </message>
    <message>
        <source>gain = 2^grade − 1</source>
        <translation>增益 = 2^等级 − 1</translation>
    </message>
    <message>
        <source>IDCG from all judged documents of the query</source>
        <translation>IDCG 取自该查询的所有已标注文档</translation>
    </message>
    <message>
        <source>IDCG from the documents the run returned</source>
        <translation>IDCG 取自该运行返回的文档</translation>
    </message>
    <message>
        <source>run order by score descending, ties by document id descending (trec_eval)</source>
        <translation>运行按得分降序排列，同分按文档 ID 降序（trec_eval）</translation>
    </message>
    <message>
        <source>run order by the file&apos;s rank column</source>
        <translation>运行按文件的 rank 列排序</translation>
    </message>
    <message>
        <source>grades of %1 only</source>
        <translation>仅 %1 的等级</translation>
    </message>
    <message>
        <source>%1 of the annotators&apos; grades (adjudicated grades win)</source>
        <translation>标注者等级的 %1（裁定的等级优先）</translation>
    </message>
    <message>
        <source>nDCG@%1 = DCG@%1 / IDCG@%1; %2; discount 1/log2(rank + 1); %3; %4; one grade per document: %5; unjudged documents gain 0.</source>
        <translation>nDCG@%1 = DCG@%1 / IDCG@%1；%2；折损 1/log2(位置 + 1)；%3；%4；每个文档一个等级：%5；未标注文档的增益为 0。</translation>
    </message>
    <message>
        <source>linear gain (grade)</source>
        <translation>线性增益（等级）</translation>
    </message>
    <message>
        <source>exponential gain (2^grade − 1)</source>
        <translation>指数增益（2^等级 − 1）</translation>
    </message>
    <message>
        <source>ideal from all judged documents</source>
        <translation>理想排序取自所有已标注文档</translation>
    </message>
    <message>
        <source>ideal from the list</source>
        <translation>理想排序取自列表</translation>
    </message>
    <message>
        <source>consensus: %1</source>
        <translation>共识：%1</translation>
    </message>
    <message>
        <source>order: score, ties by document id</source>
        <translation>顺序：得分，同分按文档 ID</translation>
    </message>
    <message>
        <source>order: rank column</source>
        <translation>顺序：rank 列</translation>
    </message>
</context>
<context>
    <name>ScoringSettingsDialog</name>
    <message>
        <source>Scoring settings</source>
        <translation>评分设置</translation>
    </message>
    <message>
        <source>Changes apply at once; the views rescore in the background.</source>
        <translation>更改立即生效；各视图在后台重新计算。</translation>
    </message>
</context>
<context>
    <name>ScoringSettingsPanel</name>
    <message>
        <source>Cutoff K: ranks 1..K count</source>
        <translation>截断 K：计入位置 1..K</translation>
    </message>
    <message>
        <source>Annotators judge the union of every run&apos;s top D documents</source>
        <translation>标注者标注所有运行前 D 个文档的并集</translation>
    </message>
    <message>
        <source>nDCG</source>
        <translation>nDCG</translation>
    </message>
    <message>
        <source>Cutoff &amp;K:</source>
        <translation>截断 &amp;K：</translation>
    </message>
    <message>
        <source>&amp;Gain:</source>
        <translation>增益(&amp;G)：</translation>
    </message>
    <message>
        <source>&amp;Ideal list:</source>
        <translation>理想排序(&amp;I)：</translation>
    </message>
    <message>
        <source>&amp;Consensus:</source>
        <translation>共识(&amp;C)：</translation>
    </message>
    <message>
        <source>Judging pool</source>
        <translation>标注池</translation>
    </message>
    <message>
        <source>Pool &amp;depth D:</source>
        <translation>标注池深度 &amp;D：</translation>
    </message>
    <message>
        <source>Quality bands (lower bound of nDCG)</source>
        <translation>质量等级（nDCG 下界）</translation>
    </message>
    <message>
        <source>%1 ≥</source>
        <translation>%1 ≥</translation>
    </message>
    <message>
        <source>⚠ Thresholds must decrease strictly: excellent &gt; good &gt; fair &gt; poor. Not applied.</source>
        <translation>⚠ 阈值必须严格递减：优秀 &gt; 良好 &gt; 一般 &gt; 差。未应用。</translation>
    </message>
</context>
<context>
    <name>StabilityView</name>
    <message>
        <source>each annotator</source>
        <translation>每位标注者</translation>
    </message>
    <message>
        <source>each judgment source</source>
        <translation>每个标注来源</translation>
    </message>
    <message>
        <source>each consensus rule</source>
        <translation>每种共识规则</translation>
    </message>
    <message>
        <source>Scoring under every grade set…</source>
        <translation>正在按每组等级计算…</translation>
    </message>
    <message>
        <source>Computing the ranking stability</source>
        <translation>计算排序稳定性</translation>
    </message>
    <message>
        <source>The grade sets whose run orders are compared</source>
        <translation>比较其运行顺序的等级组</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>An annotator takes part when they graded at least this share of every run&apos;s top K</source>
        <translation>标注者在每个运行的前 K 个中至少标注了此比例时才参与</translation>
    </message>
    <message>
        <source>min. coverage</source>
        <translation>最低覆盖率</translation>
    </message>
    <message>
        <source>Run order under</source>
        <translation>运行顺序依据</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>vs</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Kendall&apos;s τ-b (above the diagonal) and τ_AP (below)</source>
        <translation>Kendall τ-b（对角线以上）与 τ_AP（以下）</translation>
    </message>
    <message>
        <source>Mean nDCG@K of each run (its rank)</source>
        <translation>每个运行的平均 nDCG@K（名次）</translation>
    </message>
    <message>
        <source>Every two grade sets: flips</source>
        <translation>每两组等级：顺序反转</translation>
    </message>
    <message>
        <source>Ranking stability needs two runs: import another run (File ▸ Import…).</source>
        <translation>排序稳定性需要两个运行：请再导入一个运行（文件 ▸ 导入…）。</translation>
    </message>
    <message>
        <source>annotators below %1 coverage of every run&apos;s top %2 left out: %3</source>
        <translation>覆盖率低于各运行前 %2 个结果的 %1 的标注者未计入：%3</translation>
    </message>
    <message numerus="yes">
        <source>%n grade set(s): nothing to compare.</source>
        <translation>
            <numerusform>%n 组等级：无可比较。</numerusform>
        </translation>
    </message>
    <message>
        <source>Pick two different runs.</source>
        <translation>请选择两个不同的运行。</translation>
    </message>
    <message>
        <source>No grade set to compare under.</source>
        <translation>没有可用于比较的等级组。</translation>
    </message>
    <message>
        <source>the significance flips</source>
        <translation>显著性发生反转</translation>
    </message>
    <message>
        <source>%1 better than %2 under %3 of %4 grade sets</source>
        <translation>在 %4 组等级中有 %3 组下 %1 优于 %2</translation>
    </message>
    <message>
        <source>; flips under %1</source>
        <translation>；在 %1下反转</translation>
    </message>
    <message>
        <source>; never flips</source>
        <translation>；从不反转</translation>
    </message>
    <message>
        <source>; tied under %1</source>
        <translation>；在 %1下持平</translation>
    </message>
    <message>
        <source>the %1 consensus</source>
        <translation>%1共识</translation>
    </message>
    <message>
        <source>%1&apos; grades</source>
        <translation>%1 的等级</translation>
    </message>
    <message>
        <source>%1&apos;s grades</source>
        <translation>%1 的等级</translation>
    </message>
    <message>
        <source> and </source>
        <translation>和</translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1和%2</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; vs &lt;b&gt;%2&lt;/b&gt;: Cohen&apos;s κ (linear) %3, Krippendorff&apos;s α (ordinal) %4&lt;br&gt;%5 items, %6 two grades or more apart (Agreement tab: disputed list)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 对比 &lt;b&gt;%2&lt;/b&gt;：Cohen κ（线性）%3，Krippendorff α（有序）%4&lt;br&gt;%5 个条目，其中 %6 个相差两级或以上（一致性标签页：争议列表）</translation>
    </message>
    <message>
        <source>Labels of more than one model or template: %1</source>
        <translation>标签来自多个模型或模板：%1</translation>
    </message>
    <message>
        <source>Label agreement between sources</source>
        <translation>来源之间的标注一致性</translation>
    </message>
    <message>
        <source>Cohen&apos;s κ unweighted %1, quadratic %2; %3&apos;s precision/recall per grade against %4: %5</source>
        <translation>Cohen κ（无权重）%1，二次加权 %2；%3 相对于 %4 的各等级精确率/召回率：%5</translation>
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
        <translation>无数据库</translation>
    </message>
    <message>
        <source>%1 — NDCG Studio</source>
        <translation>%1 — NDCG Studio</translation>
    </message>
    <message>
        <source>Database: %1</source>
        <translation>数据库：%1</translation>
    </message>
    <message>
        <source>Annotator: %1</source>
        <translation>标注者：%1</translation>
    </message>
    <message>
        <source>No annotator</source>
        <translation>无标注者</translation>
    </message>
    <message>
        <source>counts unavailable</source>
        <translation>计数不可用</translation>
    </message>
    <message>
        <source>The database answers again.</source>
        <translation>数据库已恢复响应。</translation>
    </message>
    <message>
        <source>⚠ The database is not answering; retrying every few seconds…</source>
        <translation>⚠ 数据库无响应；每隔几秒重试…</translation>
    </message>
</context>
<context>
    <name>Task</name>
    <message>
        <source>Working…</source>
        <extracomment>a task still running after this many milliseconds shows its progress dialog a delivered task whose worker still holds its signals is looked at again after this long delivered tasks, released (their last reference dropped) by :func:`_release_delivered`</extracomment>
        <translation>处理中…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>NDCG Studio</source>
        <translation>NDCG Studio</translation>
    </message>
    <message>
        <source>About %1 s left</source>
        <translation>大约还剩 %1 秒</translation>
    </message>
    <message>
        <source>About %1 min left</source>
        <translation>大约还剩 %1 分钟</translation>
    </message>
    <message>
        <source>About %1 h left</source>
        <translation>大约还剩 %1 小时</translation>
    </message>
</context>
<context>
    <name>TauMatrixModel</name>
    <message>
        <source>Kendall&apos;s τ-b above the diagonal, τ_AP (top-weighted) below</source>
        <translation>对角线以上为 Kendall τ-b，以下为 τ_AP（头部加权）</translation>
    </message>
    <message>
        <source>same grade set</source>
        <translation>同一组等级</translation>
    </message>
    <message>
        <source>%1 vs %2: %3</source>
        <translation>%1 对 %2：%3</translation>
    </message>
</context>
<context>
    <name>TeamText</name>
    <message numerus="yes">
        <source>%1: %n judgment(s)</source>
        <extracomment>how often the database is asked for changes the last team line read: the next reads only the history written since</extracomment>
        <translation>
            <numerusform>%1：%n 条标注</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TeamWatcher</name>
    <message>
        <source>, last change %1 UTC</source>
        <translation>，最后更改于 %1 UTC</translation>
    </message>
    <message>
        <source>Team: %1</source>
        <translation>团队：%1</translation>
    </message>
</context>
<context>
    <name>Theme</name>
    <message>
        <source>&amp;System</source>
        <extracomment>the themes: code and menu text (translated where shown, context &quot;Theme&quot;)</extracomment>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
</context>
<context>
    <name>Transfer</name>
    <message>
        <source>A run (TREC run file)</source>
        <extracomment>shows a one-line result for some milliseconds (``MainWindow.show_message``) the context of this module&apos;s messages import kinds: (label, file-dialog filter), both translated in context &quot;Transfer&quot;</extracomment>
        <translation>运行（TREC run 文件）</translation>
    </message>
    <message>
        <source>TREC run (*.txt *.run *.trec);;All files (*)</source>
        <translation>TREC run (*.txt *.run *.trec);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Judgments as TREC qrels</source>
        <translation>TREC qrels 格式的标注</translation>
    </message>
    <message>
        <source>TREC qrels (*.txt *.qrels);;All files (*)</source>
        <translation>TREC qrels (*.txt *.qrels);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Judgments as CSV</source>
        <translation>CSV 格式的标注</translation>
    </message>
    <message>
        <source>CSV (*.csv);;All files (*)</source>
        <translation>CSV (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Queries (TSV, CSV)</source>
        <translation>查询（TSV、CSV）</translation>
    </message>
    <message>
        <source>Queries (*.tsv *.csv *.txt);;All files (*)</source>
        <translation>查询 (*.tsv *.csv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Documents (CSV, JSONL)</source>
        <translation>文档（CSV、JSONL）</translation>
    </message>
    <message>
        <source>Documents (*.csv *.jsonl);;All files (*)</source>
        <translation>文档 (*.csv *.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>A SMART collection file (Cranfield)</source>
        <translation>SMART 测试集文件（Cranfield）</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>TREC topics (title, description, narrative)</source>
        <translation>TREC 主题（标题、描述、说明）</translation>
    </message>
    <message>
        <source>TREC topics (*.txt *.xml *.topics);;All files (*)</source>
        <translation>TREC 主题 (*.txt *.xml *.topics);;所有文件 (*)</translation>
    </message>
    <message>
        <source>NDCG report (CSV)</source>
        <extracomment>export kinds and their labels (translated in context &quot;Transfer&quot;)</extracomment>
        <translation>NDCG 报告（CSV）</translation>
    </message>
    <message>
        <source>Judgments (CSV)</source>
        <translation>标注（CSV）</translation>
    </message>
    <message>
        <source>Consensus qrels (TREC)</source>
        <translation>共识 qrels（TREC）</translation>
    </message>
    <message>
        <source>Agreement (CSV)</source>
        <translation>一致性（CSV）</translation>
    </message>
    <message>
        <source>Run comparison (CSV)</source>
        <translation>运行比较（CSV）</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>What does the file hold?</source>
        <translation>文件包含什么？</translation>
    </message>
    <message>
        <source>Import %1</source>
        <translation>导入%1</translation>
    </message>
    <message>
        <source>Importing %1…</source>
        <translation>正在导入 %1…</translation>
    </message>
    <message>
        <source>Annotators (no judgment source)</source>
        <extracomment>Who made the judgments of an imported file: no source (a human annotator), or a source kind (labels translated in context &quot;Transfer&quot;).</extracomment>
        <translation>标注者（无标注来源）</translation>
    </message>
    <message>
        <source>A vendor&apos;s judgments</source>
        <translation>供应商的标注</translation>
    </message>
    <message>
        <source>A model&apos;s (LLM) judgments</source>
        <translation>模型（LLM）的标注</translation>
    </message>
    <message>
        <source>A team of human assessors</source>
        <translation>人工评估团队</translation>
    </message>
    <message>
        <source>Whose judgments are these?</source>
        <translation>这些是谁的标注？</translation>
    </message>
    <message>
        <source>Name of the judgment source:</source>
        <translation>标注来源的名称：</translation>
    </message>
    <message>
        <source>Annotator whose grades these are:</source>
        <translation>这些评分属于哪位标注者：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>What to export?</source>
        <translation>导出什么？</translation>
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
        <translation>导出%1</translation>
    </message>
    <message>
        <source>Exporting %1…</source>
        <translation>正在导出 %1…</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <extracomment>The Export dialog&apos;s filter for an Excel workbook (untranslated; the dialog shows it translated in context &quot;Transfer&quot;).</extracomment>
        <translation>Excel 工作簿 (*.xlsx)</translation>
    </message>
    <message>
        <source>A comparison needs two runs in the database.</source>
        <translation>比较需要数据库中有两个运行。</translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>比较运行</translation>
    </message>
    <message>
        <source>Run A:</source>
        <translation>运行 A：</translation>
    </message>
    <message>
        <source>Run B:</source>
        <translation>运行 B：</translation>
    </message>
</context>
<context>
    <name>TransferText</name>
    <message numerus="yes">
        <source>%1: %n line(s) imported</source>
        <translation>
            <numerusform>%1：已导入 %n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %n row(s) to %1</source>
        <translation>
            <numerusform>已导出 %n 行到 %1</numerusform>
        </translation>
    </message>
</context>
</TS>
