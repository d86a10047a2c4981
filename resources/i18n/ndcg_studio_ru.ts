<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ru" sourcelanguage="en">
<context>
    <name>Grades</name>
    <message>
        <source>irrelevant</source>
        <extracomment>trec_eval&apos;s &quot;judged non-relevant&quot;: the lowest grade an imported judgment may keep (gain 0 under every gain setting; an annotator grades 0-4 only). The name of each grade an annotator gives (English; the GUI shows it translated in context &quot;Grades&quot;, the CLI as it is).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>marginal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>relevant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>highly relevant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>perfect</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
