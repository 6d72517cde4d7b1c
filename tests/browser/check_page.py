#!/usr/bin/python3
"""Load a dispatchctl HTML page (report or diff) in Debian's headless chromium,
drive it over the DevTools protocol, and check what a person would see.

Checks: no console error, no exception, no network request; the DOM has one
row per operator and one cell per (operator, key); every coverage cell's
colour agrees with PyTorch's own _dispatch_dump_table (--golden); typing in
the filter box, sorting by a key, an anchor, and a real mouse click that shows
the cell's provenance with PyTorch's exact table line. Prints what it measured
(first render, filter latency) and saves a screenshot.
"""
import argparse
import base64
import fnmatch
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket  # Debian: python3-websocket

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars", "--remote-debugging-port=0"]


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


class Browser:
    def __init__(self, chromium, width=1400, height=1000):
        self.profile = tempfile.mkdtemp(prefix="dispatchctl-chromium-")
        self.proc = subprocess.Popen([chromium, *CHROMIUM_FLAGS, "--window-size=%d,%d" % (width, height),
                                      "--user-data-dir=" + self.profile, "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not os.path.exists(port_file) or os.path.getsize(port_file) == 0:
            if time.time() > deadline or self.proc.poll() is not None:
                self.close()
                fail("chromium did not start (no DevToolsActivePort)")
            time.sleep(0.05)
        port = open(port_file).read().split()[0]
        targets = json.load(urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port))
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    fail("%s: %s" % (method, message["error"]))
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, event):
        for i, e in enumerate(self.events):
            if e.get("method") == event:
                del self.events[i]
                return e
        while True:
            message = json.loads(self.ws.recv())
            if message.get("method") == event:
                return message
            self.events.append(message)

    def js(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            fail("JS error evaluating %r: %s" % (expression[:80], result["exceptionDetails"]))
        return result["result"].get("value")

    def click(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def problems(self):
        """Console errors, uncaught exceptions and network requests seen so far."""
        out = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                out.append("console.%s: %s" % (params["type"], [a.get("value") for a in params.get("args", [])]))
            elif method == "Runtime.exceptionThrown":
                out.append("exception: %s" % params["exceptionDetails"])
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                out.append("log error: %s" % params["entry"]["text"])
            elif method == "Network.requestWillBeSent":
                url = params["request"]["url"]
                if not url.startswith(("file:", "data:", "about:")):
                    out.append("network request: " + url)
        return out

    def close(self):
        try:
            self.proc.terminate()
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def golden_tables(path):
    """{op: {key: line}} from PyTorch's _dispatch_dump_table output ('=== NAME' blocks)."""
    tables, current = {}, None
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("=== "):
                current = tables.setdefault(line[4:], {})
            elif line:
                current[line.split(": ", 1)[0]] = line
    return tables


def not_implemented_kernels(path):
    """{op: debug texts} of the boxed-only VariableType kernels without a signature in PyTorch's
    _dispatch_dump: torchgen's autogradNotImplementedFallback() registrations."""
    out, current = {}, None
    if not path:
        return out
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("=== "):
                current = line[4:]
            elif line.endswith(" :: (none) [ boxed ]") and "/autograd/generated/VariableType" in line:
                out.setdefault(current, set()).add(line.split(": ", 1)[1][: -len(" :: (none) [ boxed ]")])
    return out


def outcome_from_pytorch(line, not_implemented=()):
    """The page's outcome for a table line as PyTorch printed it (None: no line, a missing row)."""
    if line is None:
        return "missing"
    text, tag = line.split(": ", 1)[1].rsplit(" [", 1)
    tag = tag.rstrip("]")
    if tag == "ambiguous autogradother":
        return "ambiguous"
    if text.startswith("fallthrough "):
        return "fallthrough"
    if tag == "backend fallback" and "MetaFallbackKernel" in text:
        return "raises"
    # 2.x's Autograd<backend> fallbacks (1.13's are fallthroughs) are the autograd-not-implemented fallback.
    if tag == "backend fallback" and "VariableFallbackKernel" in text:
        return "autograd_not_implemented"
    if tag == "backend fallback":
        return "fallback"
    # 1.13's Python binding names every Python registration /dev/null.
    if text.rsplit(":", 1)[0].endswith(".py") or text.startswith("registered at /dev/null"):
        return "python"
    if tag == "autograd kernel" and text in not_implemented:
        return "autograd_not_implemented"
    return "direct" if tag == "kernel" else "composite"


def followed(op, key, want, golden, needs, not_implemented, depth=0):
    """A generated composite's cell: what PyTorch's line of its callee (itself followed) at the key says."""
    callee = needs.get(op + " " + key)
    if not callee or want != "composite" or depth > 8:
        return want
    got = outcome_from_pytorch(golden[callee].get(key), not_implemented.get(callee, ()))
    got = followed(callee, key, got, golden, needs, not_implemented, depth + 1)
    return ("composite" if got in ("direct", "composite", "fallback", "fallthrough")
            else "composite_unknown" if got in ("python", "composite_unknown") else "composite_fails")


def decided_by_calls(key, want, got):
    """An autograd row's outcome is what the call below it (the backend row, or a
    composite's callees there) does, which PyTorch's table line cannot say: those
    cells are checked against real calls (tests/composite_calls,
    tests/trace_goldens, ctest composite_calls_verdicts_*), not against the line.
    So is a composite row the page follows through recorded calls (a stub raises,
    a callee for some inputs only is unknown)."""
    return key.startswith("Autograd") or (want in ("composite", "composite_fails") and
                                          got in ("raises", "composite_fails", "composite_unknown"))


def name_matches(text, name):
    """The filter box's rule: a glob when it has * or ?, else a substring; case-insensitive."""
    text = text.strip().lower()
    if "*" in text or "?" in text:
        return fnmatch.fnmatchcase(name.lower(), text.replace("[", "[[]"))
    return text in name.lower()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--page", required=True)
    ap.add_argument("--screenshot", required=True)
    ap.add_argument("--golden", help="computed_tables.txt.gz: check every cell against PyTorch")
    ap.add_argument("--state", help="registry_state.txt.gz of the same release (its boxed-only autograd kernels)")
    ap.add_argument("--expect-rows", type=int)
    ap.add_argument("--expect-keys", help="comma-separated column keys, in order")
    ap.add_argument("--filter", help="text to type in the filter box")
    ap.add_argument("--expect-visible", type=int, help="rows left by --filter")
    ap.add_argument("--click", help="OP,KEY: click that cell, check its provenance")
    ap.add_argument("--expect-line", help="table line the clicked cell must show (default: from --golden)")
    ap.add_argument("--window", default="1400,1000", help="WIDTH,HEIGHT of the page (and the screenshot)")
    ap.add_argument("--budget-ms", type=float, default=0, help="fail if first render exceeds this")
    ap.add_argument("--expect-added", help="diff: comma-separated operators the page lists as added, in order")
    ap.add_argument("--expect-removed", help="diff: comma-separated operators the page lists as removed, in order")
    ap.add_argument("--expect-kernel-changed", action="append", default=[],
                    help="diff: OP,KEY whose cell is marked 'kernel changed, same outcome' (repeatable; "
                         "no other cell may be)")
    ap.add_argument("--expect-cell", action="append", default=[], help="diff: OP,KEY,BEFORE,AFTER outcome ids drawn")
    ap.add_argument("--expect-panel", action="append", default=[], help="OP,KEY,TEXT: hovering shows TEXT in the panel")
    ap.add_argument("--expect-implement", action="append", default=[],
                    help="KEY,WHAT,OP,N: the page's 'What to implement at KEY' lists OP first for WHAT "
                         "(forward, backward), unblocking N rows")
    args = ap.parse_args()

    width, height = (int(n) for n in args.window.split(","))
    browser = Browser(args.chromium, width, height)
    try:
        for domain in ("Runtime", "Log", "Page", "Network"):
            browser.call(domain + ".enable")
        browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        url = "file://" + os.path.abspath(args.page)
        started = time.time()
        browser.call("Page.navigate", url=url)
        browser.wait_for("Page.loadEventFired")
        load_ms = (time.time() - started) * 1000
        report = browser.js("window.dispatchctlReport && {first: dispatchctlReport.firstRenderMs, rows: dispatchctlReport.rows, keys: dispatchctlReport.keys}")
        if not report:
            fail("the page did not render (window.dispatchctlReport missing): %s" % browser.problems())
        painted = browser.js("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now()))))")
        browser.js("dispatchctlReport.ready")
        full = browser.js("dispatchctlReport.fullRenderMs")
        dom = browser.js("""({rows: document.querySelectorAll('.r').length,
            cells: document.querySelectorAll('.r > i').length,
            keys: [...document.querySelectorAll('#keys .k')].map(th => th.textContent),
            visible: [...document.querySelectorAll('.r')].filter(el => el.checkVisibility()).length,
            anchors: document.querySelectorAll('#rows .r[id] > a[href^="#"]').length})""")
        print("page %s: %d operators x %d keys, %.1f MB" % (args.page, dom["rows"], len(dom["keys"]),
                                                             os.path.getsize(args.page) / 1e6))
        print("first render (navigation start -> first rows in the DOM): %.0f ms; first paint after it: %.0f ms; "
              "every row in the DOM: %.0f ms; load event seen by the driver after %.0f ms" %
              (report["first"], painted, full, load_ms))
        if dom["rows"] != report["rows"] or dom["visible"] != dom["rows"] or dom["anchors"] != dom["rows"]:
            fail("DOM rows %s do not match the page's %d operators" % (dom, report["rows"]))
        if dom["cells"] != dom["rows"] * len(dom["keys"]):
            fail("%d cells for %d rows x %d keys" % (dom["cells"], dom["rows"], len(dom["keys"])))
        if args.expect_rows is not None and dom["rows"] != args.expect_rows:
            fail("%d rows, expected %d" % (dom["rows"], args.expect_rows))
        if args.expect_keys and dom["keys"] != args.expect_keys.split(","):
            fail("columns %s, expected %s" % (dom["keys"], args.expect_keys))
        if args.budget_ms and report["first"] > args.budget_ms:
            fail("first render took %.0f ms (budget %.0f ms)" % (report["first"], args.budget_ms))

        if args.expect_added is not None or args.expect_removed is not None:
            lists = browser.js("""(() => { const sec = document.getElementById('opchanges');
                const names = (c) => [...sec.querySelectorAll('details.' + c + ' li')].map(li => li.textContent);
                return {hidden: sec.hidden || !sec.checkVisibility(), added: names('added'), removed: names('removed'),
                        summaries: [...sec.querySelectorAll('summary')].map(e => e.textContent)}; })()""")
            for what in ("added", "removed"):
                want = getattr(args, "expect_" + what)
                want = [n for n in want.split(",") if n] if want is not None else []
                if lists[what] != want:
                    fail("operators %s: page lists %s, expected %s" % (what, lists[what], want))
            if lists["hidden"] != (not lists["added"] and not lists["removed"]):
                fail("the added/removed operators section is %s" % ("hidden" if lists["hidden"] else "shown"))
            print("operators added/removed: %s" % " | ".join(lists["summaries"]))
        if browser.js("JSON.parse(document.getElementById('data').textContent).kind") == "diff":
            marked = browser.js("""[...document.querySelectorAll('#rows .r > i.kc')].map(i => {
                const tr = i.parentElement; return tr.id + ',' + document.querySelectorAll('#keys .k')[
                  [...tr.children].indexOf(i) - 2].textContent; })""")
            if sorted(marked) != sorted(args.expect_kernel_changed):
                fail("cells marked 'kernel changed, same outcome': %s, expected %s" % (marked, args.expect_kernel_changed))
            legend = browser.js("(e => e && e.textContent)(document.querySelector('#legend .kc-legend'))")
            if not legend or not legend.endswith(" %d" % len(marked)):
                fail("the legend's kernel-changed entry is %r, expected a count of %d" % (legend, len(marked)))
            for cell in marked:
                op, key = cell.split(",")
                # What a person sees: the marker is drawn (a radial gradient over the diagonal), and the
                # panel says what changed.
                look = browser.js("""(() => { const tr = document.getElementById(%s);
                    const i = tr.children[[...document.querySelectorAll('#keys .k')].map(k => k.textContent).indexOf(%s) + 2];
                    i.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
                    return {bg: getComputedStyle(i).backgroundImage, panel: document.getElementById('panel').innerText}; })()""" %
                                  (json.dumps(op), json.dumps(key)))
                if "radial-gradient" not in look["bg"] or "kernel changed, same outcome" not in look["panel"]:
                    fail("cell %s: background %r, panel %r" % (cell, look["bg"], look["panel"][:200]))
            print("cells marked 'kernel changed, same outcome': %s" % (marked or "none"))

        # What a person sees of one cell: its colours (diff: --a before, --b after, as outcome ids)
        # and the panel hovering it opens.
        for spec in args.expect_cell + args.expect_panel:
            op, key, want = spec.split(",", 2)
            look = browser.js("""(() => { const tr = document.getElementById(%s), ks = [...document.querySelectorAll('#keys .k')];
                const i = tr && tr.children[ks.map(k => k.textContent).indexOf(%s) + 2];
                if (!i) return null;
                i.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
                const ids = JSON.parse(document.getElementById('data').textContent).outcomes.map(o => o.id);
                const colour = (v) => (m => m ? ids[Number(m[1])] : null)(/var\(--c(\d+)\)/.exec(i.style.getPropertyValue(v)));
                return {drawn: colour('--a') + ',' + colour('--b'), panel: document.getElementById('panel').innerText}; })()""" %
                              (json.dumps(op), json.dumps(key)))
            if look is None or (spec in args.expect_cell and look["drawn"] != want) or \
                    (spec in args.expect_panel and want not in look["panel"]):
                fail("cell %s at %s: expected %r, drawn %s, panel %r" % (op, key, want, look and look["drawn"],
                                                                         look and look["panel"][:400]))
            print("cell %s at %s: %s; %s" % (op, key, look["drawn"], " | ".join(look["panel"].splitlines()[1:8])))

        # Coverage: "What to implement at KEY", as drawn, against the analysis's data in the page.
        implement = browser.js("""(() => { const D = JSON.parse(document.getElementById('data').textContent);
            const sec = document.getElementById('implement');
            return {data: D.implement || null, hidden: sec.hidden || !sec.checkVisibility(),
              drawn: [...sec.querySelectorAll('details')].map(d => ({key: d.dataset.key,
                summary: d.querySelector('summary').textContent,
                forward: [...d.querySelectorAll('.forward li')].map(li => li.textContent),
                backward: [...d.querySelectorAll('.backward li')].map(li => li.textContent)}))}; })()""")
        if implement["data"] is not None:
            def item(n):
                return "%s unblocks %s row%s" % (n["op"], format(n["unblocks"], ","), "" if n["unblocks"] == 1 else "s")
            want = [k for k in implement["data"] if k["forward"] or k["backward"]]
            if [d["key"] for d in implement["drawn"]] != [k["key"] for k in want]:
                fail("'What to implement' drawn for %s, the data has %s" % ([d["key"] for d in implement["drawn"]],
                                                                            [k["key"] for k in want]))
            if implement["hidden"] != (not want):
                fail("the 'What to implement' section is %s" % ("hidden" if implement["hidden"] else "shown"))
            for k, d in zip(want, implement["drawn"]):
                for what in ("forward", "backward"):
                    if d[what] != [item(n) for n in k[what][:25]]:
                        fail("'What to implement at %s' (%s) draws %s, the data says %s" %
                             (k["key"], what, d[what][:3], [item(n) for n in k[what][:3]]))
                print("what to implement at %s: %s; forward first: %s; backward first: %s" %
                      (k["key"], d["summary"], d["forward"][:1], d["backward"][:1]))
        for spec in args.expect_implement:
            key, what, op, n = spec.split(",")
            entry = next((k for k in (implement["data"] or []) if k["key"] == key), None)
            first = entry and entry[what] and entry[what][0]
            if not first or first["op"] != op or first["unblocks"] != int(n):
                fail("'What to implement at %s' (%s) starts with %s, expected %s unblocking %s" % (key, what, first, op, n))

        golden = golden_tables(args.golden) if args.golden else None
        not_implemented = not_implemented_kernels(args.state)
        if golden is not None:
            cells = browser.js("""(() => { const ids = dispatchctlReport && document.querySelector('#legend') &&
                JSON.parse(document.getElementById('data').textContent).outcomes.map(o => o.id);
              return [...document.querySelectorAll('.r')].map(tr =>
                [tr.id, [...tr.querySelectorAll('i')].map(td => ids[Number(td.className.slice(1))])]); })()""")
            # What each generated composite cell says it calls ("composite; needs aten::add.out (…)"):
            # PyTorch's line of that operator at the same key decides the cell.
            needs = browser.js("""(() => { const D = JSON.parse(document.getElementById('data').textContent);
              const out = {};
              D.rows.forEach(r => r[3].forEach((s, j) => { const m = /^composite; needs (\\S+) \\(/.exec(D.strings[D.states[s][2]]);
                if (m) out[r[0] + ' ' + D.keys[j]] = m[1]; }));
              return out; })()""")
            if len(cells) != len(golden):
                fail("%d rows, PyTorch has %d operators" % (len(cells), len(golden)))
            wrong = []
            for op, outcomes in cells:
                for key, got in zip(dom["keys"], outcomes):
                    want = outcome_from_pytorch(golden[op].get(key), not_implemented.get(op, ()))
                    want = followed(op, key, want, golden, needs, not_implemented)
                    if got != want and not decided_by_calls(key, want, got):
                        wrong.append("%s %s: page %s, PyTorch's line says %s" % (op, key, got, want))
            if wrong:
                fail("%d cells disagree with PyTorch, e.g. %s" % (len(wrong), wrong[:5]))
            print("every cell (%d) agrees with PyTorch's _dispatch_dump_table" % sum(len(o) for _, o in cells))

        if args.filter is not None:
            latency = browser.js("""new Promise(r => { const f = document.getElementById('filter');
                const t0 = performance.now(); f.value = %s; f.dispatchEvent(new Event('input'));
                const handled = performance.now() - t0;
                requestAnimationFrame(() => requestAnimationFrame(() => r([handled, performance.now() - t0]))); })""" %
                                 json.dumps(args.filter))
            # What is displayed, not what the attribute says: CSS decides whether [hidden] hides.
            visible = browser.js("[...document.querySelectorAll('.r')].filter(el => el.checkVisibility()).length")
            status = browser.js("document.getElementById('status').textContent")
            print("filter %r: %d rows visible; input handled in %.0f ms, next frame painted after %.0f ms" %
                  (args.filter, visible, latency[0], latency[1]))
            if args.expect_visible is None and golden is not None:
                args.expect_visible = sum(1 for op in golden if name_matches(args.filter, op))
            if args.expect_visible is not None and visible != args.expect_visible:
                fail("filter %r left %d rows, expected %d" % (args.filter, visible, args.expect_visible))
            if ("showing %s of" % format(visible, ",")) not in status:
                fail("status line %r does not say %d rows" % (status, visible))
            clear = browser.js("""new Promise(r => { const f = document.getElementById('filter');
                const t0 = performance.now(); f.value = ''; f.dispatchEvent(new Event('input'));
                requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now() - t0))); })""")
            print("clearing the filter (all rows back): next frame after %.0f ms" % clear)

        # Sorting by the first key puts the worst outcome first.
        sort_ms = browser.js("dispatchctlReport.sort(0)")
        first_class = browser.js("document.querySelector('#rows .r:not([hidden]) > i').className")
        worst = browser.js("""Math.max(...[...document.querySelectorAll('#rows .r > i:nth-child(3)')]
                              .map(td => Number(td.className.slice(1)) || 0))""")
        print("sort by %s: %.0f ms" % (dom["keys"][0], sort_ms))
        if first_class.startswith("c") and first_class != "c%d" % worst:
            fail("after sorting by %s the first row is %s, expected c%d" % (dom["keys"][0], first_class, worst))
        browser.js("dispatchctlReport.sort('name')")

        if args.click:
            op, key = args.click.split(",")
            expect = args.expect_line or (golden[op].get(key) if golden else None)
            # Opened fresh with the operator's anchor, as a link to coverage.html#OP does.
            browser.call("Page.navigate", url="about:blank")
            browser.wait_for("Page.loadEventFired")
            browser.call("Page.navigate", url=url + "#" + op)
            browser.wait_for("Page.loadEventFired")
            hit = browser.js("(document.querySelector('#rows .r.hit') || {}).id")
            if hit != op:
                fail("anchor #%s highlighted %r" % (op, hit))
            column = dom["keys"].index(key)
            box = browser.js("""(() => { const tr = document.getElementById(%s);
                const r = tr.children[%d].getBoundingClientRect();
                return [r.left + r.width / 2, r.top + r.height / 2]; })()""" % (json.dumps(op), column + 2))
            browser.click(*box)
            panel = browser.js("""(() => { const p = document.getElementById('panel');
                return {hidden: p.hidden, pinned: p.classList.contains('pinned'), op: p.dataset.op, key: p.dataset.key,
                        lines: [...p.querySelectorAll('pre.line')].map(e => e.textContent), text: p.innerText}; })()""")
            if panel["hidden"] or not panel["pinned"] or panel["op"] != op or panel["key"] != key:
                fail("clicking %s at %s showed %s" % (op, key, panel))
            if expect is not None and expect not in panel["lines"]:
                fail("panel shows %s, PyTorch's line is %r" % (panel["lines"], expect))
            print("click on %s at %s shows: %s" % (op, key, " | ".join(panel["text"].splitlines()[:6])))

            # The screenshot: the top of the page (title, filter, legend, totals) with the
            # operator's family filtered in and the clicked cell's provenance pinned.
            family = op.split(".")[0]
            browser.js("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}));"
                       "dispatchctlReport.filter(%s); window.scrollTo(0, 0)" % json.dumps(family))
            box = browser.js("""(() => { const r = document.getElementById(%s).children[%d].getBoundingClientRect();
                return [r.left + r.width / 2, r.top + r.height / 2]; })()""" % (json.dumps(op), column + 2))
            browser.click(*box)
            if browser.js("(p => p.hidden || !p.classList.contains('pinned') ? '' : p.dataset.op)(document.getElementById('panel'))") != op:
                fail("after filtering %r, clicking %s did not pin its cell" % (family, op))

        shot = browser.call("Page.captureScreenshot", format="png")
        os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
        with open(args.screenshot, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        print("screenshot: " + args.screenshot)
        problems = browser.problems()
        if problems:
            fail("; ".join(problems))
    finally:
        browser.close()
    print("OK")


if __name__ == "__main__":
    main()
