#!/usr/bin/env python3
"""Writes rulesdb/data/<ruleset>/<latest version>/articles.textproto from the texts.

Only the latest version of each ruleset is written: a published version never
changes (rulesdb/data/PUBLISHED), so an older version's file stays as it was
published. To change the articles, add a new version directory first.

Every `text_zh` is cut out of the source file by offsets, so it is verbatim
(tests/rules checks that each one is a substring of its source). The English
titles, summaries and interpretations come from articles_en.py, written by us.

Usage: extract_articles.py TEXTS_DIR OUT_DATA_DIR
(TEXTS_DIR is rulesdb/data/texts, OUT_DATA_DIR rulesdb/data)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import articles_en  # noqa: E402

CN_DIGITS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def cn_number(s):
    """Chinese numerals up to 99: 十七 -> 17, 三十四 -> 34, 十 -> 10."""
    if "十" not in s:
        return CN_DIGITS[s]
    tens, _, ones = s.partition("十")
    return (CN_DIGITS[tens] if tens else 1) * 10 + (CN_DIGITS[ones] if ones else 0)


class Unit:
    """An article, clause or item: a [start, end) span of the source."""

    def __init__(self, uid, start, end):
        self.id, self.start, self.end = uid, start, end
        self.children = []


def strip_span(src, start, end):
    while start < end and src[start].isspace():
        start += 1
    while end > start and src[end - 1].isspace():
        end -= 1
    return start, end


def find_markers(src, pattern, lo, hi):
    return [(m.start(), m.end(), m.group(1)) for m in re.compile(pattern, re.M).finditer(src, lo, hi)]


def split(src, markers, lo, hi):
    """[(number, marker_start, body_start, body_end)] for consecutive markers."""
    out = []
    for i, (ms, me, num) in enumerate(markers):
        end = markers[i + 1][0] if i + 1 < len(markers) else hi
        out.append((num, ms, me, end))
    return out


def parse(src, ruleset):
    if ruleset == "cn-2002":
        art_re = r"^第(\d+)条"
        clause_re = r"^(\d+)、"
        item_re = r"^\((\d+)\)"
        to_int = int
    else:
        art_re = r"(?:^|(?<=\s))第([一二三四五六七八九十]+)条"
        clause_re = r"(?:^|(?<=[\s：]))([一二三四五六七八九十]+)、"
        item_re = None
        to_int = cn_number
    chapters = [m.start() for m in re.finditer(r"^第[一二三四五六七八九十]+章", src, re.M)]
    arts = find_markers(src, art_re, 0, len(src))
    articles = []
    for i, (ms, me, num) in enumerate(arts):
        end = arts[i + 1][0] if i + 1 < len(arts) else len(src)
        end = min([c for c in chapters if ms < c < end] + [end])
        n = to_int(num)
        aid = f"{ruleset}/{n}"
        # Heading: the rest of the first line; the title is its first token.
        line_end = src.find("\n", me)
        line_end = end if line_end < 0 or line_end > end else line_end
        head = src[me:line_end]
        title_m = re.match(r"[ ：:]*([^ ：:]*)", head)
        title = title_m.group(1) if title_m else ""
        art = Unit(aid, ms, end)
        art.number = n
        # A heading that is a sentence ("第三十四条 本规则的解释权属国家体委。") has no title.
        if head.startswith("：") or title.endswith("。"):
            title, title_m = "", re.match(r"[ ：:]*", head)
        art.title_zh = title
        body_start = me + title_m.end()
        art.body = (body_start, end)
        articles.append(art)
        clause_markers = find_markers(src, clause_re, body_start, end)
        if ruleset == "cn-2002" and n == 27:
            clause_markers = []  # the two parts are handled below
        for num_c, cms, cme, cend in split(src, clause_markers, body_start, end):
            c = Unit(f"{aid}.{to_int(num_c)}", cme, cend)
            art.children.append(c)
        art.preamble = (body_start, clause_markers[0][0] if clause_markers else end)
        special(src, ruleset, art, item_re, to_int)
        for c in art.children:
            if item_re and not c.children:
                for num_i, ims, ime, iend in split(src, find_markers(src, item_re, c.start, c.end), c.start, c.end):
                    le = src.find("\n", ime)
                    c.children.append(Unit(f"{c.id}.{int(num_i)}", ime, min(iend, le if le >= 0 else iend)))
    return articles


def special(src, ruleset, art, item_re, to_int):
    """The few places where the texts' layout is irregular."""
    n = art.number
    if ruleset == "cn-2002" and n == 1:
        # The board paragraph has no "1、" label; it is item 1 (before "2、棋子").
        s, e = art.preamble
        art.children.insert(0, Unit(f"{art.id}.1", s, e))
        art.preamble = (s, s)
    if ruleset == "cn-2002" and n == 27:
        # Two unnumbered parts, 个人赛 and 团体赛; we number them 27.1 and 27.2
        # as 1988 art. 28 does, and their "N、" paragraphs become items.
        s, e = art.body
        parts = [src.find("个人赛：", s, e), src.find("团体赛：", s, e)]
        for k, ps in enumerate(parts):
            pe = parts[k + 1] if k + 1 < len(parts) else e
            part = Unit(f"{art.id}.{k + 1}", ps, pe)
            for num_i, ims, ime, iend in split(src, find_markers(src, r"^(\d+)、", ps, pe), ps, pe):
                part.children.append(Unit(f"{part.id}.{int(num_i)}", ime, iend))
            art.children.append(part)
        art.preamble = (s, parts[0])
    if ruleset == "cn-1988" and n == 17:
        # 17.3 lists the chief arbiter's choices inline: "1.…;2.…;3.和棋4.重下;".
        c = [c for c in art.children if c.id.endswith(".3")][0]
        ms = find_markers(src, r"(\d)\.(?=\D)", c.start, c.end)
        for i, (s, e, num) in enumerate(ms):
            end = ms[i + 1][0] if i + 1 < len(ms) else src.find(";", e, c.end) + 1
            c.children.append(Unit(f"{c.id}.{num}", e, end))
    if ruleset == "cn-1988" and n == 28:
        for c in art.children:
            ms = find_markers(src, r"(?:^|(?<=\s))(\d)、", c.start, c.end)
            for num_i, ims, ime, iend in split(src, ms, c.start, c.end):
                c.children.append(Unit(f"{c.id}.{num_i}", ime, iend))


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def text(src, span):
    s, e = strip_span(src, *span)
    return src[s:e]


def emit(src, ruleset, articles, out):
    en = articles_en.EN[ruleset]
    w = out.write
    w(f"# Articles of {ruleset}: generated by rulesdb/tools/extract_articles.py from\n")
    w(f"# rulesdb/data/texts/{ruleset}-rules.zh.txt (text_zh verbatim) and articles_en.py (ours).\n")
    for a in articles:
        e = en.get(a.id, {})
        w("articles {\n")
        w(f"  number: {a.number}\n  id: {q(a.id)}\n")
        if a.title_zh:
            w(f"  title_zh: {q(a.title_zh)}\n")
        w(f"  title_en: {q(e.get('t', ''))}\n")
        body = text(src, a.preamble if a.children else a.body)
        if not body and not a.children:
            body = a.title_zh
        if body:
            w(f"  text_zh: {q(body)}\n")
        if e.get("s"):
            w(f"  summary_en: {q(e['s'])}\n")
        if e.get("i"):
            w(f"  interpretation: {q(e['i'])}\n")
        for c in flatten(a.children):
            ce = en.get(c.id, {})
            w("  clauses {\n")
            w(f"    id: {q(c.id)}\n    text_zh: {q(text(src, (c.start, c.end)))}\n")
            w(f"    title_en: {q(ce.get('t', ''))}\n")
            w(f"    summary_en: {q(ce.get('s', ''))}\n")
            if ce.get("i"):
                w(f"    interpretation: {q(ce['i'])}\n")
            w("  }\n")
        w("}\n")


def flatten(units):
    for u in units:
        yield u
        yield from flatten(u.children)


def version_key(version):
    """Orders "2002.2" before "2002.10", as rulesdb's CompareVersions does."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in version.split(".")]


def latest_version_dir(data, ruleset):
    versions = [v for v in os.listdir(os.path.join(data, ruleset))
                if os.path.isdir(os.path.join(data, ruleset, v))]
    return os.path.join(data, ruleset, max(versions, key=version_key))


def main():
    spec, data = sys.argv[1], sys.argv[2]
    for ruleset in ("cn-2002", "cn-1988"):
        src = open(os.path.join(spec, f"{ruleset}-rules.zh.txt"), encoding="utf-8").read()
        articles = parse(src, ruleset)
        out_dir = latest_version_dir(data, ruleset)
        with open(os.path.join(out_dir, "articles.textproto"), "w", encoding="utf-8") as out:
            emit(src, ruleset, articles, out)
        ids = [a.id for a in articles] + [c.id for a in articles for c in flatten(a.children)]
        missing = [i for i in ids if not articles_en.EN[ruleset].get(i, {}).get("t")]
        print(f"{ruleset}: {len(articles)} articles, {len(ids)} ids, {len(missing)} without English",
              file=sys.stderr)


if __name__ == "__main__":
    main()
