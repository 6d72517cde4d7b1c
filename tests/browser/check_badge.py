#!/usr/bin/python3
"""`report --format svg`'s badge in Debian's headless chromium (check_page.py's Browser):
it renders alone and inside an <img> (as a README shows it), at its declared size, with its
two texts fitting their boxes, and no console error or network request.

    check_badge.py --badge FILE --expect-label TEXT --expect-value TEXT --screenshot PNG"""
import argparse
import base64
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_page import Browser, fail  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--badge", required=True)
    ap.add_argument("--expect-label", required=True)
    ap.add_argument("--expect-value", required=True)
    ap.add_argument("--screenshot", required=True)
    args = ap.parse_args()
    browser = Browser(args.chromium, 400, 100)
    try:
        for domain in ("Runtime", "Log", "Page", "Network"):
            browser.call(domain + ".enable")
        browser.call("Page.navigate", url="file://" + os.path.abspath(args.badge))
        browser.wait_for("Page.loadEventFired")
        svg = browser.js("""(() => { const s = document.documentElement;
            const box = (id) => { const b = document.getElementById(id).getBBox(); return [b.x, b.width]; };
            const rects = [...s.querySelectorAll('g[clip-path] rect')].map(r => [r.x.baseVal.value, r.width.baseVal.value]);
            return {tag: s.tagName, width: s.width.baseVal.value, height: s.height.baseVal.value,
                    label: document.getElementById('label').textContent, value: document.getElementById('value').textContent,
                    labelBox: box('label'), valueBox: box('value'), rects: rects}; })()""")
        if svg["tag"] != "svg":
            fail("not rendered as SVG: %s" % svg)
        if svg["label"] != args.expect_label or svg["value"] != args.expect_value:
            fail("badge reads %r | %r, expected %r | %r" % (svg["label"], svg["value"], args.expect_label,
                                                             args.expect_value))
        (label_x, label_w), (value_x, value_w) = svg["labelBox"], svg["valueBox"]
        (_, label_rect_w), (value_rect_x, value_rect_w) = svg["rects"][0], svg["rects"][1]
        if not (0 <= label_x and label_x + label_w <= label_rect_w and value_rect_x <= value_x and
                value_x + value_w <= value_rect_x + value_rect_w and value_rect_x + value_rect_w == svg["width"]):
            fail("a text overflows its box: %s" % svg)
        # As a README shows it: an <img> of the file, at its own size.
        with tempfile.NamedTemporaryFile("w", suffix=".html", dir=os.path.dirname(os.path.abspath(args.badge)),
                                         delete=False) as page:
            page.write('<!doctype html><body style="margin:0"><img id="b" style="display:block" src="%s"></body>' %
                       os.path.basename(args.badge))
        try:
            browser.call("Page.navigate", url="file://" + page.name)
            browser.wait_for("Page.loadEventFired")
            img = browser.js("""new Promise(r => { const i = document.getElementById('b');
                const done = () => r({complete: i.complete, w: i.naturalWidth, h: i.naturalHeight});
                i.complete ? done() : i.onload = done; })""")
        finally:
            os.unlink(page.name)
        if not img["complete"] or img["w"] != svg["width"] or img["h"] != 20:
            fail("as an <img>: %s (badge %sx%s)" % (img, svg["width"], svg["height"]))
        shot = browser.call("Page.captureScreenshot", format="png", clip={"x": 0, "y": 0, "width": svg["width"],
                                                                         "height": 20, "scale": 2})
        os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
        with open(args.screenshot, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        problems = browser.problems()
        if problems:
            fail("; ".join(problems))
        print("badge %s | %s: %dx%d, renders alone and as an <img>; screenshot %s" %
              (svg["label"], svg["value"], svg["width"], svg["height"], args.screenshot))
    finally:
        browser.close()


if __name__ == "__main__":
    main()
