# SPDX-License-Identifier: GPL-3.0-or-later
"""Cases on values, --out targets and full disks, session links, messages and large valid inputs."""
from common import *  # noqa: F401,F403 (the set-up, run() and the inputs)


def values_class():
    cls = 7
    long = "9" * 100000
    nl = "1\n2\n3"
    for v, label in ((long, "100k digits"), (nl, "line breaks"), ("1\r\x1b[2J", "escape"), ("x" * 100000, "100k letters")):
        run(cls, "--set Z=%s" % label, ["xgraph", "--set", "Z=" + v], expect=(2,))
        run(cls, "--set %s=1" % label, ["xgraph", "--set", v + "=1"], expect=(2,))
        run(cls, "--profile %s" % label, ["xgraph", "--profile", v], expect=(2,), max_message=600)
        run(cls, "--x %s" % label, ["fit-trace", "--trace", os.path.join(SRC, "tests/data/h100_sxm/stream.csv"),
            "--x", v, "--y", "read_gbs"], expect=(2,))
        run(cls, "--cc %s" % label, ["occupancy", "--cc", v, "--threads", "256", "--regs", "32", "--smem", "0"],
            expect=(2,))
        run(cls, "--br %s" % label, ["zigzag", "--sms", "15", "--ba", "1", "--br", v], expect=(2,))
        run(cls, "--view %s" % label, ["render", "--session", os.path.join(SRC, "docs/samples/v100-measured.crossroof"),
            "--view", v, "--out", path("v.svg")], expect=(2,))
        run(cls, "--weight %s" % label, ["calibrate", "--family", path("family.csv"), "--profile", "h100-sxm",
            "--weight", v], expect=(2,))
        run(cls, "--point %s" % label, ["mappings", "--profile", "clovertown-x5365", "--p", "0.5", "--q", "0.5",
            "--point", v], expect=(2,))
        run(cls, "--measured %s" % label, ["skeleton", "--file", os.path.join(SRC, "docs/samples/skeletons/haccmk.skel"),
            "--measured", v], expect=(2,))
        run(cls, "--strategy %s" % label, ["markov", "--profile", "clovertown-x5365", "--strategy", v], expect=(2,))
        run(cls, "unknown option %s" % label, ["xgraph", "--" + v], expect=(2,))
        run(cls, "unknown command %s" % label, [v], expect=(2,))
    # In files: a long or multi-line value in a field.
    write("family.csv", FAMILY)
    for v, label in (("9" * 100000, "100k digits"), ('"1\n2\n3"', "line breaks in quotes"), ("\x1b[31mred", "escape")):
        lines = FAMILY.decode().splitlines()
        fs = lines[1].split(",")
        fs[8] = v
        f = write("values/family-%s.csv" % label.replace(" ", "-"), "\n".join([lines[0], ",".join(fs)] + lines[2:]) + "\n")
        run(cls, "family gbs %s" % label, ["calibrate", "--family", f, "--profile", "h100-sxm"], expect=(2,))
        prof = json.loads(PROFILE)
        prof["parameters"]["Z"] = v
        f = write("values/profile-%s.json" % label.replace(" ", "-"), json.dumps(prof))
        run(cls, "profile Z string %s" % label, ["xgraph", "--profile", f], expect=(2,))
        prof = json.loads(PROFILE)
        prof["kind"] = v
        f = write("values/profile-kind-%s.json" % label.replace(" ", "-"), json.dumps(prof))
        run(cls, "profile kind %s" % label, ["xgraph", "--profile", f], expect=(2,))
        f = write("values/skel-%s.skel" % label.replace(" ", "-"), SKELETON.decode().replace("ld xx1", "ld " + v))
        run(cls, "skeleton operand %s" % label, ["skeleton", "--file", f])
        f = write("values/perf-%s.tsv" % label.replace(" ", "-"), PERF.decode().replace("imc/event=0x04,umask=0x0f/", v, 1))
        run(cls, "perf event %s" % label, ["bandwidth-curve", "--trace", f, "--format", "perf-stat", "--column",
            "imc-bytes", "--limit", "1e8"])
        c = {"instructions": 50, "suspend": [{"name": v, "multi": 1, "single": 2}]}
        f = write("values/counters-%s.json" % label.replace(" ", "-"), json.dumps(c))
        run(cls, "counters event name %s" % label, ["counters", "--file", f, "--json"])


def out_class():
    cls = 9
    d = path("out")
    os.makedirs(d)
    write("family.csv", FAMILY)
    sess = os.path.join(SRC, "docs/samples/v100-measured.crossroof")
    makers = {
        "calibrate": lambda o: ["calibrate", "--family", path("family.csv"), "--profile", "h100-sxm", "--out", o],
        "render": lambda o: ["render", "--session", sess, "--view", "xgraph", "--out", o],
    }
    victim = write("out/victim.txt", "keep me\n").decode()
    for what, argv in makers.items():
        ext = ".json" if what == "calibrate" else ".svg"
        t = d + "/" + what
        os.makedirs(t)
        os.symlink(victim, t + "/link" + ext)
        run(cls, "%s --out a symlink" % what, argv(t + "/link" + ext))
        os.mkfifo(t + "/fifo" + ext)
        run(cls, "%s --out a FIFO" % what, argv(t + "/fifo" + ext), expect=(2,))
        os.makedirs(t + "/dir" + ext)
        run(cls, "%s --out a folder" % what, argv(t + "/dir" + ext), expect=(2,))
        try:
            os.mknod(t + "/dev" + ext, 0o600 | stat.S_IFCHR, os.makedev(1, 5))
            run(cls, "%s --out a device node" % what, argv(t + "/dev" + ext), expect=(2,))
            if not stat.S_ISCHR(os.stat(t + "/dev" + ext).st_mode):
                fail_line(cls, "%s --out replaced a device node" % what)
        except OSError:
            pass
        for tmp in (".part", ".tmp", "~", ".new"):
            os.symlink(victim, t + "/x" + ext + tmp)
        run(cls, "%s --out beside planted temp links" % what, argv(t + "/x" + ext))
        run(cls, "%s --out in a missing folder" % what, argv(t + "/missing/x" + ext), expect=(2,))
        run(cls, "%s --out in a file as folder" % what, argv(victim + "/x" + ext), expect=(2,))
        os.makedirs(t + "/ro")
        os.chmod(t + "/ro", 0o500)
        if os.geteuid() != 0:
            run(cls, "%s --out in a read-only folder" % what, argv(t + "/ro/x" + ext), expect=(2,))
        run(cls, "%s --out empty" % what, argv(""), expect=(2,))
        run(cls, "%s --out with a line break" % what, argv(t + "/a\nb" + ext))
        run(cls, "%s --out a 300-byte name" % what, argv(t + "/" + "n" * 300 + ext), expect=(2,))
        run(cls, "%s --out - (standard output)" % what, argv("-"))
    with open(victim) as f:
        if f.read() != "keep me\n":
            fail_line(cls, "a file behind a link was overwritten")
    for name in os.listdir(d):
        pass
    leftovers = [os.path.join(r, n) for r, _, ns in os.walk(d) for n in ns
                 if re.search(r"\.(part|tmp)[^/]*$", n) and not os.path.islink(os.path.join(r, n))]
    if leftovers:
        fail_line(cls, "temporary files left behind: %s" % leftovers[:3])
    # A full disk: a 64 KiB tmpfs.
    full = path("full")
    os.makedirs(full)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", full], capture_output=True).returncode == 0:
        try:
            write((full + "/filler").encode(), b"\0" * (60 << 10))
            for what, argv in makers.items():
                ext = ".json" if what == "calibrate" else ".svg"
                r = run(11, "%s --out on a full disk" % what, argv(full + "/x" + ext), expect=(2,), must="space")
                left = os.listdir(full)
                if left != ["filler"]:
                    fail_line(11, "%s on a full disk left %s" % (what, left))
            os.unlink(full + "/filler")
            write((full + "/filler").encode(), b"\0" * (64 << 10))
            r = subprocess.run("%s xgraph --json > %s/o.json" % (CLI, full), shell=True, capture_output=True, env=ENV)
            results[11][0] += 1
            if r.returncode != 2 or b"space" not in r.stderr:
                fail_line(11, "xgraph --json > full disk: exit %d %r" % (r.returncode, r.stderr[:200]), count=False)
        finally:
            subprocess.run(["umount", full])
    else:
        print("(no tmpfs: the full-disk cases are skipped)")


def links_class():
    cls = 3
    d = path("links")
    os.makedirs(d)
    rows = "warps_per_sm,read_gbs\n" + "".join("%d,%d\n" % (i % 64 + 1, 100 + i % 7) for i in range(400000))
    table = write("links/table.csv", rows)
    s = json.loads(SESSION)
    base = None
    for t in s.get("traces", []):
        base = t
        break
    if base is None:
        print("(no trace in the sample session: link cases skipped)")
        return
    traces = []
    for i in range(500):
        t = {"id": "t%d" % i, "name": "link %d" % i, "kind": "bandwidth-vs-warps", "link": table.decode(),
             "origin": {"format": "table", "index": 0,
                        "mapping": {"kind": "bandwidth-vs-warps", "x": "warps_per_sm", "y": "read_gbs"}}}
        traces.append(t)
    s2 = dict(s)
    s2["traces"] = traces
    f = write("links/500-links.crossroof", json.dumps(s2))
    run(cls, "500 links to one 4 MB table", ["render", "--session", f, "--view", "xgraph", "--out", path("l.svg")])
    for target, label in (("/nonexistent/t.csv", "missing"), (d, "a folder"), ("", "empty"),
                          ("relative/../../t.csv", "relative escape"), ("x" * 5000, "5000-char"),
                          (W.decode() + "/links/loop.csv", "link loop")):
        if label == "link loop":
            os.symlink("loop.csv", d + "/loop.csv")
        s3 = dict(s)
        s3["traces"] = [dict(traces[0], link=target)]
        f = write("links/link-%s.crossroof" % label.replace(" ", "-"), json.dumps(s3))
        # The file's own message names the path whole, as every message names its file.
        run(cls, "session link %s" % label, ["render", "--session", f, "--view", "xgraph", "--out", path("l.svg")],
            paths=[target, os.path.join(d, target)])
    # A link chain: a session linking a table which is a symlink to a FIFO.
    os.mkfifo(d + "/fifo.csv")
    os.symlink(d + "/fifo.csv", d + "/to-fifo.csv")
    s3 = dict(s)
    s3["traces"] = [dict(traces[0], link=d + "/to-fifo.csv")]
    f = write("links/link-symlink-fifo.crossroof", json.dumps(s3))
    run(cls, "session link via symlink to FIFO", ["render", "--session", f, "--view", "xgraph", "--out", path("l.svg")])
    # Link to a session itself, and to the 1e308 table.
    s3["traces"] = [dict(traces[0], link=f.decode())]
    f2 = write("links/link-self.crossroof", json.dumps(s3))
    s3["traces"] = [dict(traces[0], link=f2.decode())]
    write("links/link-self.crossroof", json.dumps(s3))
    run(cls, "session linking itself", ["render", "--session", f2, "--view", "xgraph", "--out", path("l.svg")])
    t = write("links/huge.csv", "warps_per_sm,read_gbs\n1,1e308\n2,1e308\n3,1e308\n")
    s3["traces"] = [dict(traces[0], link=t.decode())]
    f = write("links/link-1e308.crossroof", json.dumps(s3))
    run(cls, "session linking a table of 1e308", ["render", "--session", f, "--view", "bandwidth", "--out", path("l.svg")])
    run(cls, "session linking a table of 1e308 (xgraph)", ["render", "--session", f, "--view", "xgraph", "--out", path("l.svg")])


def messages_class():
    cls = 8
    write("family.csv", FAMILY)
    # Damage late in a long file must be named by its line.
    lines = FAMILY.decode().splitlines()
    body = lines[1:] * 300
    body[-1] = body[-1].rsplit(",", 2)[0] + ",x,1"
    f = write("msg/family-late.csv", "\n".join([lines[0]] + body) + "\n")
    run(cls, "family bad value on the last line", ["calibrate", "--family", f, "--profile", "h100-sxm"], expect=(2,),
        must=r"family-late.csv:%d" % (len(body) + 1))
    f = write("msg/stream-dup.csv", STREAM.decode() + STREAM.decode().splitlines()[0] + "\n")
    run(cls, "stream header again at the end", ["calibrate", "--family", path("family.csv"), "--stream", f,
        "--profile", "h100-sxm"], expect=(2,), must=r"stream-dup.csv:\d+")
    for key in ("sms", "clock_khz", "mem_clock_khz", "cc"):
        d = path("msg/probe-missing-" + key)
        os.makedirs(d)
        for n, t in (("stream.csv", STREAM), ("latency.csv", LATENCY), ("family.csv", FAMILY)):
            write((d + "/" + n).encode(), t)
        write((d + "/device.csv").encode(), "\n".join(l for l in DEVICE.decode().splitlines()
                                                    if not l.startswith(key + ",")) + "\n")
        run(cls, "probe device.csv without %s" % key, ["calibrate", "--probe", d], must="device.csv")
    f = write("msg/session-bad-trace.crossroof", SESSION.decode().replace('"kind": "', '"kind": "zz', 1))
    run(cls, "session with a bad kind", ["render", "--session", f, "--view", "xgraph", "--out", path("m.svg")],
        expect=(2,), must="field")


def large_class():
    cls = 2
    d = path("large")
    os.makedirs(d)
    subprocess.run(["bash", os.path.join(SRC, "scripts/scale_inputs.sh"), d, "1000000", "10"], check=True,
                   capture_output=True)
    subprocess.run(["bash", os.path.join(SRC, "scripts/large_inputs.sh"), d], check=True, capture_output=True)
    run(cls, "calibrate on a 1M-row family", ["calibrate", "--family", d + "/family_1000000.csv", "--profile",
        "h100-sxm"], large=True)
    for fmt in ("text", "csv", "json"):
        run(cls, "kernels --format %s on 1M kernels" % fmt, ["kernels", "--trace", d + "/ncu_1m.csv", "--profile",
            "h100-sxm", "--format", fmt], large=True)
    run(cls, "extrapolate on 1M training rows", ["extrapolate", "--train", d + "/train_1m.csv", "--target-size",
        "160"], large=True)
    run(cls, "fit-trace --model locality on 1M points", ["fit-trace", "--trace", d + "/trace_1m.csv", "--x",
        "warps_per_sm", "--y", "request_gbs", "--model", "locality", "--profile", "h100-sxm"], large=True)
    run(cls, "bandwidth-curve on 1 MiB of perf stat events", ["bandwidth-curve", "--trace", d + "/perf_1mb.txt",
        "--column", "ev5", "--limit", "100"], large=True)
    with open(d + "/skel-5000.skel", "w") as f:
        f.write("def m ()\n{\n    :n = 100\n    for i = 0:n\n    {\n")
        for i in range(5000):
            f.write("        fma a%d: a%d, a%d\n" % (i, max(0, i - 1), max(0, i - 2)) if i % 3 else "        ld a%d\n" % i)
        f.write("    }\n}\n")
    run(cls, "skeleton of 5000 statements", ["skeleton", "--file", d + "/skel-5000.skel", "--json"], large=True)
    # A 16.7M-interval trace linked from a session.
    with open(d + "/bytes.csv", "w") as f:
        f.write("bytes\n")
        chunk = "".join("%d\n" % (1 + (i * 7919) % 9) for i in range(1 << 16))  # 32 MiB, under the 64 MiB limit
        for _ in range(256):
            f.write(chunk)
    s = json.loads(read("docs/samples/h100-thrashing.crossroof"))
    bw = {"id": "big", "name": "16.7M intervals", "kind": "bytes-per-interval", "link": d + "/bytes.csv",
          "origin": {"format": "table", "index": 0, "mapping": {"kind": "bytes-per-interval", "y": "bytes"}}}
    s.pop("measured_curves", None)  # the sample's curves name traces of their own kind
    s["traces"] = s.get("traces", []) + [bw]
    f = write("large/big.crossroof", json.dumps(s))
    run(cls, "render bandwidth of a 16.7M-interval trace", ["--session", f, "--view", "bandwidth", "--out",
        d + "/big.svg"], exe=RENDER, large=True)
    if os.path.exists(d + "/big.svg"):
        print("     SVG: %d KB" % (os.path.getsize(d + "/big.svg") >> 10))
