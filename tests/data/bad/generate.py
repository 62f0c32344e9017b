#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the small files of the bad-input corpus (tests/data/bad/<format>/ and tests/data/bad/accepted/<format>/).

The files are committed; this script only documents how they were made and rewrites them (it is not run by
the tests, and CI does not need Python). The big files (over 64 KiB: a million rows, a line of megabytes, a
file over a reader's size limit) are written at test time by tests/app/cli/bad_inputs.sh.

    python3 tests/data/bad/generate.py        # from the repository root; rewrites every file it owns
"""
import json
import os
import random
import shutil
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(ROOT, "..", "..", ".."))

random.seed(19)  # issue 19; fixed so that rerunning changes nothing


def read(path):
    with open(os.path.join(REPO, path), "rb") as f:
        return f.read()


FORMATS = {}

# Damaged files that the readers accept, and rightly: each is still a file of its format that means something
# (docs/TESTING.md says why for each group). They go to accepted/, where the test asserts exit status 0 and
# finite output instead of a refusal.
ACCEPTED = {
    # A second BOM, a CR inside JSON whitespace, long names, values the model takes (h = 0, n above the
    # warp slots: the occupancy caps it), workload parameters that have defaults.
    "profile": {"bom-twice", "lone-cr-mid-line", "id-long", "name-long", "missing-parameters-n",
                "n-above-max-warps", "parameters-h-tiny", "parameters-h-zero"},
    # Session fields with defaults or fallbacks (view, Markov grid and point, occupancy device, trace ids).
    "session": {"bom-twice", "lone-cr-mid-line", "markov-grid-empty", "markov-p_index-zero",
                "missing-parameters-n", "occupancy-cc-bogus", "occupancy-cc-empty", "occupancy-cc-long",
                "traces-duplicate-id", "view-current-empty"},
    # A zero throughput is a point the fit leaves out (it says so); k = 0 is a point.
    "table": {"bom-twice", "x-zero", "y-zero"},
    "gpu_benches": {"threads-zero", "tidy-sm-count-zero", "tidy-occupancy-text"},
    # perf stat without per-CPU columns (-a), odd units, counts and times are still a demand trace.
    "perf_stat": {"count-1e30", "cpu-field-missing", "interval-small", "invalid-utf8", "line-10k",
                  "runtime-zero", "time-1e300", "time-backwards", "time-zero"},
    # ncu: the ==PROF== lines around the table are free text; a kernel with a bad or missing value is listed
    # as skipped, with the reason, and the others compared.
    "ncu": {"bom-twice", "lone-cr-mid-line", "details-truncated", "details-unclosed-quote", "details-value-nan",
            "rawsmall-dram-empty", "rawsmall-dram-zero", "rawsmall-many-ids", "rawsmall-ragged",
            "rawsmall-warps-empty", "rawsmall-warps-zero", "summary-no-quotes"},
    # The skeleton language allows these (a statement's operands are free, names are free, loops may nest
    # the same variable).
    "skeleton": {"fma-one-operand", "header-twice", "keyword-as-name", "line-10k", "lone-cr-mid-line",
                 "long-name", "loop-var-reused", "var-redefined"},
    # The model tree learns from whatever sizes it gets.
    "training": {"all-one-size", "bom-twice", "iteration-negative", "size-above-one", "size-negative",
                 "size-zero"},
    # Columns other than n, Z, E and gbs are ignored.
    "family": {"bom-twice", "line-10k"},
}


def add(fmt, name, data, accepted=False):
    if isinstance(data, str):
        data = data.encode("utf-8")
    if name.rsplit(".", 1)[0] in ACCEPTED.get(fmt, ()):
        accepted = True
    FORMATS.setdefault(fmt, []).append((name, data, accepted))


def binary(n):
    return bytes(random.randrange(256) for _ in range(n))


def common(fmt, good, ext):
    """Damage every format can get, from its good file GOOD (bytes)."""
    lines = good.split(b"\n")
    add(fmt, "empty" + ext, b"")
    add(fmt, "whitespace-only" + ext, b"   \n\t\n  \n")
    add(fmt, "newlines-only" + ext, b"\n" * 50)
    add(fmt, "binary-random" + ext, binary(4096))
    add(fmt, "binary-nul" + ext, b"\0" * 512)
    add(fmt, "elf-header" + ext, b"\x7fELF\x02\x01\x01\0" + binary(256))
    add(fmt, "png-header" + ext, b"\x89PNG\r\n\x1a\n" + binary(200))
    add(fmt, "gzip" + ext, b"\x1f\x8b\x08\x00" + binary(300))
    add(fmt, "truncated-half" + ext, good[: len(good) // 2])
    add(fmt, "truncated-3-bytes" + ext, good[:3])
    add(fmt, "nul-in-middle" + ext, good[: len(good) // 3] + b"\0" + good[len(good) // 3:])
    add(fmt, "invalid-utf8" + ext, good[: len(good) // 3] + b"\xff\xfe\xc3\x28\xa0\xa1" + good[len(good) // 3:])
    add(fmt, "utf16le-bom" + ext, b"\xff\xfe" + good.decode("utf-8").encode("utf-16-le"))
    add(fmt, "utf16be-bom" + ext, b"\xfe\xff" + good.decode("utf-8").encode("utf-16-be"))
    add(fmt, "bom-twice" + ext, b"\xef\xbb\xbf\xef\xbb\xbf" + good)
    # Legitimately accepted: the good file with a UTF-8 BOM, with CRLF, with both, with bare CR.
    add(fmt, "bom" + ext, b"\xef\xbb\xbf" + good, accepted=True)
    add(fmt, "crlf" + ext, good.replace(b"\n", b"\r\n"), accepted=True)
    add(fmt, "bom-crlf" + ext, b"\xef\xbb\xbf" + good.replace(b"\n", b"\r\n"), accepted=True)
    add(fmt, "cr-only" + ext, good.replace(b"\n", b"\r"), accepted=True)
    add(fmt, "good" + ext, good, accepted=True)
    add(fmt, "binary-tail" + ext, good + binary(1024))
    add(fmt, "control-chars" + ext, good.replace(b" ", b"\x01", 5).replace(b",", b"\x02", 5))
    first = good.split(b"\n")[0]
    add(fmt, "line-10k" + ext, good.replace(b"\n", b"x" * 10000 + b"\n", 2))
    add(fmt, "header-twice" + ext, good[: len(good) // 2] + b"\n" + first + b"\n" + good[len(good) // 2:])
    add(fmt, "lone-cr-mid-line" + ext, good.replace(b"\n", b"\r", 2)[:len(good) // 2] + good[len(good) // 2:])
    add(fmt, "no-final-newline" + ext, good.rstrip(b"\n"), accepted=True)
    return lines


# ---------------------------------------------------------------- JSON (profiles, sessions)

def json_common(fmt, good_obj, ext, number_fields, string_fields, required):
    """JSON damage: syntax, top-level types, every listed field missing, doubled, of the wrong type, out of range."""
    good = json.dumps(good_obj, indent=2).encode()
    common(fmt, good, ext)
    for name, text in [
        ("top-array", "[]"), ("top-string", '"profile"'), ("top-number", "42"), ("top-null", "null"),
        ("top-true", "true"), ("top-empty-object", "{}"),
        ("syntax-trailing-comma", good.decode()[:-2] + ",\n}"),
        ("syntax-two-documents", good.decode() + "\n" + good.decode()),
        ("syntax-trailing-garbage", good.decode() + "garbage"),
        ("syntax-comment", "// comment\n" + good.decode()),
        ("syntax-single-quotes", good.decode().replace('"', "'")),
        ("syntax-unterminated-string", '{"format_version": 1, "id": "abc'),
        ("syntax-control-char", '{"format_version": 1, "id": "a\x01b"}'),
        ("syntax-lone-surrogate", '{"format_version": 1, "id": "\\ud800"}'),
        ("syntax-bad-escape", '{"format_version": 1, "id": "\\q"}'),
        ("syntax-nan-literal", good.decode().replace('"format_version": 1', '"format_version": NaN')),
        ("syntax-infinity-literal", good.decode().replace('"format_version": 1', '"format_version": Infinity')),
        ("deep-array-100", "[" * 100 + "]" * 100),
        ("deep-object-200", '{"a":' * 200 + "1" + "}" * 200),
        ("deep-array-10000", "[" * 10000 + "]" * 10000),
        ("deep-unclosed-10000", '{"a":[' * 5000),
        ("long-key", '{"' + "k" * 5000 + '": 1}'),
    ]:
        add(fmt, name + ext, text)

    def mutate(tag, fn):
        obj = json.loads(good)
        fn(obj)
        add(fmt, tag + ext, json.dumps(obj, indent=2))

    def at(obj, path):
        *parents, last = path.split(".")
        for p in parents:
            obj = obj[p]
        return obj, last

    for path in required:
        def drop(o, path=path):
            parent, key = at(o, path)
            del parent[key]
        mutate("missing-" + path.replace(".", "-"), drop)
    for path in number_fields:
        tag = path.replace(".", "-")
        for vtag, value in [("string", "12"), ("null", None), ("array", [1]), ("negative", -1), ("zero", 0),
                            ("huge", 1e300), ("tiny", 5e-324)]:
            def setv(o, path=path, value=value):
                parent, key = at(o, path)
                parent[key] = value
            mutate(f"{tag}-{vtag}", setv)
        # Numbers JSON cannot hold as a double: written by hand.
        parent, key = at(json.loads(good), path)
        old = json.dumps(parent[key])
        text = good.decode()
        needle = f'"{key}": {old}'
        if needle in text:
            add(fmt, f"{tag}-1e309{ext}", text.replace(needle, f'"{key}": 1e309', 1))
            add(fmt, f"{tag}-minus-1e309{ext}", text.replace(needle, f'"{key}": -1e309', 1))
            add(fmt, f"{tag}-nan{ext}", text.replace(needle, f'"{key}": NaN', 1))
            add(fmt, f"{tag}-long-number{ext}", text.replace(needle, f'"{key}": 1' + "0" * 400, 1))
    for path in string_fields:
        tag = path.replace(".", "-")
        for vtag, value in [("number", 7), ("null", None), ("empty", ""), ("long", "v" * 3000)]:
            def sets(o, path=path, value=value):
                parent, key = at(o, path)
                parent[key] = value
            mutate(f"{tag}-{vtag}", sets)
    # A key twice in one object (the JSON text repeats it; json.dumps cannot).
    text = good.decode()
    first_key = next(iter(good_obj))
    add(fmt, "duplicate-top-key" + ext,
        text.replace("{", "{\n  " + json.dumps(first_key) + ": " + json.dumps(good_obj[first_key]) + ",", 1))
    return good


def profiles():
    prof = json.loads(read("hardware_profiles/gtx570-dp.json"))
    prof["sources"] = [{"fields": sorted(prof["parameters"]), "text": "every value as in hardware_profiles/gtx570-dp.json"}]
    numbers = ["format_version"] + ["parameters." + k for k in ("R", "L", "n", "h")]
    good = json_common("profile", prof, ".json", numbers, ["id", "name", "kind", "parameters.cache"],
                       ["format_version", "id", "name", "parameters", "parameters.R", "parameters.L",
                        "parameters.M", "parameters.n"])
    text = good.decode()
    add("profile", "duplicate-parameter.json", text.replace('"R": 152', '"R": 152, "R": 153'))
    add("profile", "cache-unknown.json", text.replace('"cache": "none"', '"cache": "lru"'))
    add("profile", "kind-unknown.json", text.replace('"kind": "gpu"', '"kind": "fpga"'))
    add("profile", "format-version-2.json", text.replace('"format_version": 1', '"format_version": 2'))
    add("profile", "format-version-fraction.json", text.replace('"format_version": 1', '"format_version": 1.5'))
    add("profile", "parameters-array.json", json.dumps(dict(prof, parameters=[1, 2, 3])))
    add("profile", "sources-not-array.json", json.dumps(dict(prof, sources="none")))
    add("profile", "sources-entry-number.json", json.dumps(dict(prof, sources=[5])))
    add("profile", "n-above-max-warps.json", text.replace('"n": 48', '"n": 4800'))


def sessions():
    sess = json.loads(read("docs/samples/gtx570-thrashing.crossroof"))
    sess["profile"]["sources"] = [{"fields": sorted(sess["profile"]["parameters"]), "text": "as in the sample"}]
    numbers = ["format_version", "parameters.n", "parameters.R", "occupancy.threads_per_block", "markov.groups",
               "markov.p_index"]
    good = json_common("session", sess, ".crossroof", numbers, ["format", "view.current", "parameters.cache",
                                                                 "markov.grid", "occupancy.cc"],
                       ["format", "format_version", "profile", "parameters", "parameters.n"])
    text = good.decode()
    add("session", "format-wrong.crossroof", text.replace('"crossroof-session"', '"crossroof-profile"'))
    add("session", "format-version-99.crossroof", text.replace('"format_version": 1', '"format_version": 99', 1))
    add("session", "profile-is-string.crossroof", json.dumps(dict(sess, profile="gtx570-sp")))
    add("session", "profile-bad-parameter.crossroof",
        text.replace('"R": 147,', '"R": -147,', 1))
    add("session", "parameters-array.crossroof", json.dumps(dict(sess, parameters=[])))
    add("session", "view-unknown.crossroof", text.replace('"current": "xgraph"', '"current": "nosuchview"'))
    add("session", "markov-huge-groups.crossroof", text.replace('"groups": 4', '"groups": 1000000'))
    add("session", "occupancy-cc-bogus.crossroof", text.replace('"cc": "2.0"', '"cc": "99.9"'))
    bad_traces = [
        ("traces-not-array", "x"),
        ("traces-entry-number", [1]),
        ("traces-xy-mismatch", [{"id": "t1", "name": "a", "source": "s", "kind": "bandwidth-vs-warps",
                                 "visible": True, "x": [1, 2, 3], "y": [1, 2], "extra": [], "labels": []}]),
        ("traces-x-strings", [{"id": "t1", "name": "a", "source": "s", "kind": "bandwidth-vs-warps",
                               "visible": True, "x": ["1", "2"], "y": [1, 2], "extra": [], "labels": []}]),
        ("traces-kind-unknown", [{"id": "t1", "name": "a", "source": "s", "kind": "what",
                                  "visible": True, "x": [1], "y": [1], "extra": [], "labels": []}]),
        ("traces-duplicate-id", [{"id": "t1", "name": "a", "source": "s", "kind": "bandwidth-vs-warps",
                                  "visible": True, "x": [1], "y": [1], "extra": [], "labels": []}] * 2),
        ("traces-link-missing-file", [{"id": "t1", "name": "a", "source": "s", "kind": "bandwidth-vs-warps",
                                       "visible": True, "link": {"path": "/nonexistent/trace.csv", "format": "csv",
                                                                 "x": "a", "y": "b"}}]),
    ]
    for tag, traces in bad_traces:
        add("session", tag + ".crossroof", json.dumps(dict(sess, traces=traces), indent=1))
    text_nan = text.replace('"n": 24.0', '"n": NaN')
    add("session", "parameters-n-nan-literal.crossroof", text_nan)


# ---------------------------------------------------------------- tables (fit-trace --format csv)

def tables():
    good = read("tests/data/h100_sxm/stream.csv")
    lines = common("table", good, ".csv")
    head, rows = lines[0], [l for l in lines[1:] if l]
    def t(name, body, accepted=False):
        add("table", name, body if isinstance(body, bytes) else body.encode(), accepted)
    t("header-only.csv", head + b"\n")
    t("one-row.csv", head + b"\n" + rows[0] + b"\n")
    t("no-header.csv", b"\n".join(rows) + b"\n")
    t("missing-x-column.csv", good.replace(b"warps_per_sm", b"warps"))
    t("missing-y-column.csv", good.replace(b"read_gbs", b"gbs"))
    t("duplicate-x-column.csv", good.replace(b"grid", b"warps_per_sm"))
    t("ragged-short-row.csv", head + b"\n" + rows[0] + b"\n" + b"3,396\n" + b"\n".join(rows[2:]) + b"\n")
    t("ragged-long-row.csv", head + b"\n" + rows[0] + b",9,9,9\n" + b"\n".join(rows[1:]) + b"\n")
    for tag, val in [("nan", b"nan"), ("NaN", b"NaN"), ("inf", b"inf"), ("minus-inf", b"-inf"),
                     ("1e309", b"1e309"), ("minus-1e309", b"-1e309"), ("text", b"fast"), ("empty", b""),
                     ("hex", b"0x10"), ("two-dots", b"1.2.3"), ("long-number", b"1" + b"0" * 400),
                     ("zero", b"0"), ("negative", b"-42.81")]:
        t(f"y-{tag}.csv", good.replace(b",42.81\n", b"," + val + b"\n", 1))
        if tag in ("nan", "inf", "1e309", "text", "negative", "zero"):
            t(f"x-{tag}.csv", good.replace(b"\n1,132,", b"\n" + val + b",132,", 1))
    t("all-y-zero.csv", head + b"\n" + b"".join(b"%d,1,1,1,1,0\n" % i for i in range(1, 20)))
    t("all-x-same.csv", head + b"\n" + b"".join(b"4,1,1,1,1,%d\n" % (i * 10) for i in range(1, 20)))
    t("unclosed-quote.csv", head + b"\n" + b'"1,132,32,127100,50.1596,42.81\n' + b"\n".join(rows[1:]) + b"\n")
    t("quote-in-number.csv", good.replace(b",42.81\n", b',"42"81\n', 1))
    t("delimiters-only.csv", b",,,,,\n,,,,,\n,,,,,\n")
    t("semicolon-decimal-comma.csv", good.replace(b",", b";").replace(b".", b","), accepted=True)
    t("tab.tsv", good.replace(b",", b"\t"), accepted=True)
    t("header-unicode.csv", good.replace(b"grid", "grille_\u00e9".encode()), accepted=True)
    t("header-invalid-utf8.csv", good.replace(b"warps_per_sm", b"warps_per_sm\xff"))
    t("x-column-text-everywhere.csv", head + b"\n" + b"".join(b"a%d,1,1,1,1,%d\n" % (i, i) for i in range(30)))


# ---------------------------------------------------------------- gpu-benches stream output

def gpu_benches():
    good = read("tests/data/gpu_stream_v100.txt")
    lines = common("gpu_benches", good, ".txt")
    head, rows = lines[0], [l for l in lines[1:] if l]
    def t(name, body, accepted=False):
        add("gpu_benches", name, body, accepted)
    t("header-only.txt", head + b"\n")
    t("no-header.txt", b"\n".join(rows) + b"\n")
    t("no-gbs-marker.txt", good.replace(b"GB/s:", b"     "))
    t("missing-bar.txt", good.replace(b"|", b" "))
    for tag, val in [("nan", b"nan"), ("inf", b"inf"), ("1e309", b"1e309"), ("negative", b"-153"), ("text", b"lots"),
                     ("long-number", b"9" * 400)]:
        t(f"value-{tag}.txt", good.replace(b"  153 ", b"  " + val + b" ", 1))
        t(f"blocksize-{tag}.txt", good.replace(b"       32        2560", b"       " + val + b"        2560", 1))
    t("row-short.txt", head + b"\n" + rows[0][:40] + b"\n" + b"\n".join(rows[1:]) + b"\n")
    t("row-long.txt", head + b"\n" + rows[0] + b"   1 2 3 4\n" + b"\n".join(rows[1:]) + b"\n")
    t("blocksize-zero.txt", good.replace(b"       32        2560", b"        0        2560", 1))
    t("threads-zero.txt", good.replace(b"       32        2560", b"       32           0", 1))
    tidy = read("tests/fuzz/corpus/gpu_benches/tidy.csv")
    tl = tidy.split(b"\n")
    t("tidy-good.csv", tidy, accepted=True)
    t("tidy-header-only.csv", tl[0] + b"\n")
    t("tidy-missing-warps.csv", tidy.replace(b"warps_per_sm,", b"warps,"))
    t("tidy-sm-count-zero.csv", tidy.replace(b"a100_40,108,", b"a100_40,0,"))
    t("tidy-nan.csv", tidy.replace(b",159,", b",nan,"))
    t("tidy-inf-warps.csv", tidy.replace(b"a100_40,108,32,2,2,", b"a100_40,108,32,2,inf,"))
    t("tidy-1e309.csv", tidy.replace(b",159,", b",1e309,"))
    t("tidy-negative.csv", tidy.replace(b",159,", b",-159,"))
    t("tidy-text.csv", tidy.replace(b",159,", b",fast,"))
    t("tidy-ragged.csv", tidy.replace(b",159,81,", b","))
    t("tidy-crlf.csv", tidy.replace(b"\n", b"\r\n"), accepted=True)
    t("tidy-empty-row.csv", tidy + b"a100_40,,,,,,,,,,,\n")
    t("tidy-occupancy-text.csv", tidy.replace(b",2,3,", b",2,most,", 1))
    t("header-fewer-kernels.txt", good.replace(b"       3pt        5pt", b"", 1))
    t("gbs-values-text.txt", good.replace(b"GB/s:         153         72", b"GB/s:         abc         def", 1))


# ---------------------------------------------------------------- ncu CSV (details, raw, summary)

def ncu():
    details = read("tests/fuzz/corpus/ncu_csv/h100_details_one_kernel.csv")
    raw = read("tests/fuzz/corpus/ncu_csv/h100_raw_one_kernel.csv")
    summary = read("tests/fuzz/corpus/ncu_csv/summary.csv")
    small_raw = read("tests/fuzz/corpus/ncu_csv/raw.csv")
    common("ncu", small_raw, ".csv")
    def t(name, body, accepted=False):
        add("ncu", name, body, accepted)
    for tag, good in [("details", details), ("raw", raw), ("summary", summary), ("rawsmall", small_raw)]:
        lines = good.split(b"\n")
        t(f"{tag}-good.csv", good, accepted=True)
        t(f"{tag}-truncated.csv", good[: len(good) * 2 // 3])
        t(f"{tag}-header-only.csv", b"\n".join(l for l in lines if l.startswith(b'"ID"') or
                                              l.startswith(b'"Process ID"')) + b"\n")
        t(f"{tag}-crlf.csv", good.replace(b"\n", b"\r\n"), accepted=True)
        t(f"{tag}-bom.csv", b"\xef\xbb\xbf" + good, accepted=True)
        t(f"{tag}-invalid-utf8.csv", good.replace(b"Kernel Name", b"Kernel\xff\xfeName", 1))
        t(f"{tag}-unclosed-quote.csv", good.replace(b'"', b"", 1))
        t(f"{tag}-no-quotes.csv", good.replace(b'"', b""))
        t(f"{tag}-semicolons.csv", good.replace(b'","', b'";"'))
    # Values: raw form columns.
    for tag, val in [("nan", b"nan"), ("inf", b"inf"), ("1e309", b"1e309"), ("negative", b"-1.25"),
                     ("text", b"fast"), ("empty", b""), ("zero", b"0"), ("long-number", b"1" + b"0" * 400)]:
        t(f"rawsmall-dram-{tag}.csv", small_raw.replace(b'"1.25"', b'"' + val + b'"'))
        t(f"rawsmall-warps-{tag}.csv", small_raw.replace(b'"12.5"', b'"' + val + b'"'))
    t("rawsmall-unit-bogus.csv", small_raw.replace(b"Tbyte/second", b"furlong/fortnight"))
    t("rawsmall-no-units-row.csv", small_raw.replace(b'"","","Tbyte/second","warp","inst"\n', b""))
    t("rawsmall-duplicate-column.csv", small_raw.replace(b'"ID","Kernel Name"', b'"ID","ID"'))
    t("rawsmall-ragged.csv", small_raw.replace(b'"12.5",', b""))
    t("rawsmall-many-ids.csv", small_raw + small_raw.split(b"\n")[2] + b"\n")
    t("summary-avg-nan.csv", summary.replace(b'"20"', b'"nan"'))
    t("summary-min-gt-max.csv", summary.replace(b'"10","30"', b'"30","10"'), accepted=True)
    t("only-prof-lines.csv", b"==PROF== Connected to process 1 (/x)\n==PROF== Disconnected from process 1\n")
    t("prof-error.csv", b"==ERROR== The application returned an error code (1).\n==WARNING== No kernels were profiled.\n")
    # Counts that are finite one by one but whose ratios are not, or lie outside the X-model's ranges: the
    # kernel is listed as skipped with the reason, and nothing printed is inf ("+inf%", Z inf).
    def raw_with(**values):
        lines = raw.split(b"\n")
        header = lines[2].strip(b'"').split(b'","')
        row = lines[4].strip(b'"').split(b'","')
        for name, value in values.items():
            row[header.index(name.encode())] = value
        return b"\n".join(lines[:4] + [b'"' + b'","'.join(row) + b'"'] + lines[5:])
    insts = {"sm__inst_executed.sum": b"1e308", "smsp__inst_executed.sum": b"1e308"}
    t("raw-z-inf.csv", raw_with(**insts, **{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": b"0.5"}), accepted=True)
    t("raw-z-1e307.csv", raw_with(**{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": b"1e-300"}), accepted=True)
    t("raw-sectors-1e308.csv", raw_with(**{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": b"1e308"}),
      accepted=True)
    t("raw-dram-1e308.csv", raw_with(**{"dram__bytes.sum.per_second": b"1e308"}), accepted=True)
    t("raw-dram-denormal.csv", raw_with(**{"dram__bytes.sum.per_second": b"1e-300"}), accepted=True)
    t("raw-duration-denormal.csv", raw_with(**{"gpu__time_duration.sum": b"1e-300"}), accepted=True)
    t("details-value-nan.csv", details.replace(b'"Achieved Active Warps Per SM","warp","', b'"Achieved Active Warps Per SM","warp","nan', 1))


# ---------------------------------------------------------------- perf stat

def perf():
    interval = read("tests/fuzz/corpus/perf_stat/interval.tsv")
    aggregate = read("tests/fuzz/corpus/perf_stat/aggregate.csv")
    full = read("tests/data/perf_stat_excerpt.tsv")
    full = b"\n".join(l for l in full.split(b"\n") if b"\tCPU0\t" in l) + b"\n"  # CPU0 of each interval
    good = full
    common("perf_stat", good, ".tsv")
    def t(name, body, accepted=False):
        add("perf_stat", name, body, accepted)
    first = full.split(b"\n")[0]
    fields = first.split(b"\t")
    t("interval-small.tsv", interval)
    t("aggregate-no-interval.csv", aggregate)
    t("comments-only.tsv", b"# started on Mon Jun 12\n#\n# nothing\n")
    for tag, val in [("nan", b"nan"), ("inf", b"inf"), ("1e309", b"1e309"), ("negative", b"-5"), ("text", b"many"),
                     ("long-number", b"7" * 400)]:
        t(f"count-{tag}.tsv", full.replace(b"\t1338376\t", b"\t" + val + b"\t"))
        t(f"time-{tag}.tsv", full.replace(b"1.001047559", val))
    t("time-backwards.tsv", full.replace(b"1.001047559", b"9.001047559", 3))
    t("too-few-fields.tsv", b"\n".join(b"\t".join(l.split(b"\t")[:2]) for l in full.split(b"\n")))
    t("not-counted.tsv", full.replace(b"\t1338376\t", b"\t<not counted>\t"), accepted=True)
    t("not-supported.tsv", full.replace(b"\t1338376\t", b"\t<not supported>\t"), accepted=True)
    t("no-imc-events.tsv", b"\n".join(l for l in full.split(b"\n") if b"imc/" not in l))
    t("semicolon.tsv", full.replace(b"\t", b";"))
    t("unit-bogus.tsv", full.replace(b"\tmsec\t", b"\tparsecs\t"), accepted=True)
    t("cpu-field-missing.tsv", b"\n".join(b"\t".join(l.split(b"\t")[:1] + l.split(b"\t")[2:]) for l in full.split(b"\n")))
    t("event-empty.tsv", full.replace(b"imc/event=0x04,umask=0x0f/", b""))
    t("runtime-zero.tsv", full.replace(b"\t12277396655\t", b"\t0\t"))
    t("percent-nan.tsv", full.replace(b"\t100.00\t", b"\tnan\t"))
    t("percent-negative.tsv", full.replace(b"\t100.00\t", b"\t-100.00\t"))
    t("count-1e30.tsv", full.replace(b"\t1338376\t", b"\t1e30\t"))
    # Counts that are doubles but whose bytes (x 64) or sums are not: refused with the line, never "got inf".
    t("count-1e308-times-64.tsv", full.replace(b"\t1338376\t", b"\t1e308\t"))
    cas = next(l for l in full.split(b"\n") if b"\t1338376\t" in l)
    huge = cas.replace(b"\t1338376\t", b"\t1e308\t")
    t("count-sum-over-cpus-1e308-twice.tsv", full.replace(cas, huge + b"\n" + huge.replace(b"\tCPU0\t", b"\tCPU1\t")))
    t("count-reads-plus-writes-overflow.tsv", full.replace(b"\t1338376\t", b"\t1.5e306\t")
                                                  .replace(b"\t749694\t", b"\t1.5e306\t"))
    t("count-thousands-commas.tsv", full.replace(b"\t1338376\t", b"\t1,338,376\t"))
    t("time-zero.tsv", full.replace(b"1.001047559", b"0"))
    t("time-1e300.tsv", full.replace(b"1.001047559", b"1e300"))
    t("time-word.tsv", full.replace(b"1.001047559", b"soon"))
    t("time-empty.tsv", full.replace(b"     1.001047559", b""))
    t("count-empty.tsv", full.replace(b"\t1338376\t", b"\t\t"))
    t("count-hex.tsv", full.replace(b"\t1338376\t", b"\t0x1f\t"))
    t("runtime-nan.tsv", full.replace(b"\t12277396655\t", b"\tnan\t"))
    t("runtime-text.tsv", full.replace(b"\t12277396655\t", b"\tlong\t"))
    t("percent-text.tsv", full.replace(b"\t100.00\t", b"\tall\t"))
    t("too-many-fields.tsv", full.replace(b"\tM/sec", b"\tM/sec\ta\tb\tc\td\te\tf"))
    t("event-5000-chars-missing-imc.tsv", b"\n".join(l.replace(b"imc/", b"x" * 5000 + b"/")
                                                     for l in full.split(b"\n")))
    t("count-percent-swapped.tsv", full.replace(b"\t1338376\t", b"\t100.00%\t"))
    del fields


# ---------------------------------------------------------------- skeletons

def skeletons():
    good = read("docs/samples/skeletons/haccmk.skel")
    common("skeleton", good, ".skel")
    def t(name, body, accepted=False):
        add("skeleton", name, body, accepted)
    for tag, text in [
        ("no-def", "for i = 0:4 { ld a }\n"),
        ("unclosed-brace", "def m () {\n for i = 0:4 { ld a\n"),
        ("extra-brace", "def m () { for i = 0:4 { ld a } } }\n"),
        ("unknown-statement", "def m () { for i = 0:4 { jump a } }\n"),
        ("loop-zero-trip", "def m () { for i = 0:0 { ld a } }\n"),
        ("loop-negative", "def m () { for i = 4:0 { ld a } }\n"),
        ("loop-huge", "def m () { for i = 0:1e309 { ld a } }\n"),
        ("loop-nan", "def m () { for i = 0:nan { ld a } }\n"),
        ("loop-inf", "def m () { for i = 0:inf { ld a } }\n"),
        ("loop-trip-1e300", "def m () { for i = 0:1e300 { for j = 0:1e300 { ld a } } }\n"),
        ("var-undefined", "def m () { for i = 0:n { ld a } }\n"),
        ("var-self", "def m () {\n :n = n\n for i = 0:n { ld a } }\n"),
        ("var-nan", "def m () {\n :n = nan\n for i = 0:n { ld a } }\n"),
        ("var-text", "def m () {\n :n = abc\n for i = 0:n { ld a } }\n"),
        ("empty-body", "def m () { }\n"),
        ("empty-loop", "def m () { for i = 0:4 { } }\n"),
        ("missing-operands", "def m () { for i = 0:4 { fp : } }\n"),
        ("stray-colon", "def m () { for i = 0:4 { fp a: b,, c } }\n"),
        ("two-defs", "def m () { for i = 0:4 { ld a } }\ndef m () { for i = 0:4 { ld a } }\n"),
        ("deep-loops-2000", "def m () {\n" + "for i = 0:2 {\n" * 2000 + "ld a\n" + "}\n" * 2000 + "}\n"),
        ("name-invalid-utf8", "def m\xff () { for i = 0:4 { ld a } }\n"),
        ("long-name", "def " + "m" * 5000 + " () { for i = 0:4 { ld a } }\n"),
        ("unroll-of-zero-width", "def m () { forall j = 0:0 { ld a } }\n"),
        ("ld-no-operand", "def m () { for i = 0:4 { ld } }\n"),
        ("fma-one-operand", "def m () { for i = 0:4 { fma a: b } }\n"),
        ("forall-bound-text", "def m () { forall j = 0:many { ld a } }\n"),
        ("var-redefined", "def m () {\n :n = 4\n :n = 8\n for i = 0:n { ld a } }\n"),
        ("loop-var-reused", "def m () { for i = 0:4 { for i = 0:4 { ld a } } }\n"),
        ("name-unicode", "def m\u00e9 () { for i = 0:4 { ld a } }\n"),
        ("comment-only", "# nothing here\n"),
        ("keyword-as-name", "def for () { for i = 0:4 { ld a } }\n"),
        ("def-no-parens", "def m { for i = 0:4 { ld a } }\n"),
        ("def-no-body", "def m ()\n"),
        ("for-missing-range", "def m () { for i { ld a } }\n"),
        ("for-range-text", "def m () { for i = a:b { ld a } }\n"),
        ("nested-def", "def m () { def n () { for i = 0:4 { ld a } } }\n"),
        ("var-no-value", "def m () {\n :n =\n for i = 0:n { ld a } }\n"),
        ("var-no-name", "def m () {\n : = 4\n for i = 0:4 { ld a } }\n"),
        ("var-1e309", "def m () {\n :n = 1e309\n for i = 0:n { ld a } }\n"),
    ]:
        t(tag + ".skel", text.encode("utf-8", "surrogateescape") if "\xff" not in text
          else text.encode("latin-1"))
    t("every-kind.skel", read("tests/fuzz/corpus/skeleton/every-kind.skel"), accepted=True)


# ---------------------------------------------------------------- model-tree training CSV

def training():
    good = read("docs/samples/modeltree-training.csv")
    lines = good.split(b"\n")
    # A smaller good file: the comment, the header and every 4th row (still every strategy and size).
    good = b"\n".join(lines[:2] + [l for i, l in enumerate(lines[2:]) if l and i % 4 == 0]) + b"\n"
    common("training", good, ".csv")
    head = lines[1]
    def t(name, body, accepted=False):
        add("training", name, body, accepted)
    t("header-only.csv", head + b"\n")
    t("one-row.csv", head + b"\n" + lines[2] + b"\n")
    t("missing-p.csv", good.replace(b"p_value", b"p"))
    t("missing-strategy.csv", good.replace(b"Mapping_Strategy", b"Strategy"))
    t("duplicate-column.csv", good.replace(b"Iteration", b"p_value"))
    for tag, val in [("nan", b"nan"), ("inf", b"inf"), ("1e309", b"1e309"), ("negative", b"-0.5"), ("above-one", b"1.5"),
                     ("text", b"high"), ("empty", b"")]:
        t(f"p-{tag}.csv", good.replace(b",0.6676,", b"," + val + b",", 1))
        t(f"size-{tag}.csv", good.replace(b"\n32,1,", b"\n" + val + b",1,", 1))
    t("size-zero.csv", good.replace(b"\n32,1,", b"\n0,1,", 1))
    t("ragged.csv", good.replace(b",0.6676,0.5883", b"", 1))
    t("all-one-size.csv", b"\n".join([head] + [l for l in good.split(b"\n")[2:] if l.startswith(b"32,")]) + b"\n")
    t("measured-cpi-not-training.csv", read("docs/samples/modeltree-measured-cpi.csv"))
    t("semicolons.csv", good.replace(b",", b";").replace(b".", b","), accepted=True)
    for col, idx in (("iteration", 1), ("l2", 2), ("threads", 3), ("states", 5), ("q", 7)):
        for tag, val in [("nan", b"nan"), ("negative", b"-1")]:
            row = lines[2]
            parts = row.split(b",")
            parts[idx] = val
            t(f"{col}-{tag}.csv", good.replace(row, b",".join(parts), 1))
    t("strategy-empty.csv", good.replace(b",2threads_same_L2,", b",,", 1))
    t("comment-only.csv", b"# only a comment\n")
    t("p-quoted-text.csv", good.replace(b",0.6676,", b',"0.6676 approx",', 1))


# ---------------------------------------------------------------- kernel family CSV (calibrate --family)

def family():
    full = read("tests/data/h100_sxm/family.csv")
    lines = full.split(b"\n")
    good = b"\n".join(lines[:1] + [l for i, l in enumerate(lines[1:]) if l and i % 6 == 0]) + b"\n"
    common("family", good, ".csv")
    head = lines[0]
    rows = [l for l in good.split(b"\n")[1:] if l]
    def t(name, body, accepted=False):
        add("family", name, body, accepted)
    t("header-only.csv", head + b"\n")
    t("one-row.csv", head + b"\n" + rows[0] + b"\n")
    for col in (b"n,", b",Z,", b",E,", b",gbs,"):
        t("missing-" + col.strip(b",").decode() + ".csv", good.replace(col, col.replace(col.strip(b","), b"q"), 1))
    t("duplicate-column.csv", good.replace(b"fma_per_request", b"gbs"))
    first = rows[0]
    parts = first.split(b",")
    for col, idx in (("n", 0), ("Z", 2), ("E", 3), ("gbs", 8)):
        for tag, val in [("nan", b"nan"), ("inf", b"inf"), ("1e309", b"1e309"), ("negative", b"-3"),
                         ("zero", b"0"), ("text", b"x")]:
            p = list(parts)
            p[idx] = val
            t(f"{col}-{tag}.csv", good.replace(first, b",".join(p), 1))
    t("ragged.csv", good.replace(first, b",".join(parts[:4]), 1))
    t("n-fraction.csv", good.replace(first, b",".join([b"2.5"] + parts[1:]), 1))
    # Finite throughputs outside R's range, whose squared or relative errors pass a double (RMSE inf).
    for tag, val in [("1e300", b"1e300"), ("1e-300", b"1e-300"), ("denormal", b"4e-320")]:
        p = list(parts)
        p[8] = val
        t(f"gbs-{tag}-outside-R-range.csv", good.replace(first, b",".join(p), 1))


def main():
    profiles()
    sessions()
    tables()
    gpu_benches()
    ncu()
    perf()
    skeletons()
    training()
    family()
    for fmt, files in FORMATS.items():
        for sub in (os.path.join(ROOT, fmt), os.path.join(ROOT, "accepted", fmt)):
            shutil.rmtree(sub, ignore_errors=True)
            os.makedirs(sub)
        seen = set()
        for name, data, accepted in files:
            if name in seen:
                sys.exit(f"generate.py: {fmt}/{name} twice")
            seen.add(name)
            folder = os.path.join(ROOT, "accepted", fmt) if accepted else os.path.join(ROOT, fmt)
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
        print(f"{fmt}: {sum(1 for f in files if not f[2])} bad, {sum(1 for f in files if f[2])} accepted")


if __name__ == "__main__":
    main()
