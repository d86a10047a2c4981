<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>BandCountsChart</name>
    <message>
        <source>Queries per quality band</source>
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
    <name>ChartView</name>
    <message>
        <source>No data</source>
        <extracomment>categorical series colours (Okabe–Ito: blue, orange, bluish green, reddish purple, …) run A / run B better, in the Compare chart</extracomment>
        <translation>无数据</translation>
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
        <source> (paired t-test, α = 0.05, residual variance of the two-way ANOVA; Sakai 2016).</source>
        <translation>（配对 t 检验，α = 0.05，双因素方差分析的残差方差；Sakai 2016）。</translation>
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
    <message>
        <source>Δ nDCG@%1 (A − B)</source>
        <translation>Δ nDCG@%1（A − B）</translation>
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
    <name>Language</name>
    <message>
        <source>The language changes when NDCG Studio is started again.</source>
        <extracomment>the interface languages: code and name, each in its own language (the menu shows these) the context of this module&apos;s own messages in the .ts files</extracomment>
        <translation>语言将在下次启动 NDCG Studio 时生效。</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <extracomment>the language the running application shows (set by :func:`apply_language`)</extracomment>
        <translation>语言(&amp;L)</translation>
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
        <source>&lt;b&gt;%1&lt;/b&gt; vs &lt;b&gt;%2&lt;/b&gt;: Cohen&apos;s κ (linear) %3, Krippendorff&apos;s α (ordinal) %4&lt;br&gt;%5 items, %6 two grades or more apart (Agreement tab: disputed list)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 对比 &lt;b&gt;%2&lt;/b&gt;：Cohen κ（线性）%3，Krippendorff α（有序）%4&lt;br&gt;%5 个条目，其中 %6 个相差两级或以上（一致性标签页：争议列表）</translation>
    </message>
    <message>
        <source>Label agreement between sources</source>
        <translation>来源之间的标注一致性</translation>
    </message>
</context>
<context>
    <name>TeamText</name>
    <message numerus="yes">
        <source>%1: %n judgment(s)</source>
        <extracomment>how often the database is asked for changes</extracomment>
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
</TS>
