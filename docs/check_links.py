"""Check every link of the built site offline: each relative link's page exists and has its anchor.

``python docs/check_links.py docs/_build/html`` prints each broken link (page, target) and exits 1 if
there is one. Links to other sites are counted, not fetched (CI has no network); ``python -m sphinx
-b linkcheck docs docs/_build/linkcheck`` checks them where there is one.
"""

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    """The ids a page defines and the links it makes."""

    def __init__(self):
        super().__init__()
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        for key in ("href", "src"):
            if attrs.get(key) and not (tag == "link" and attrs.get("rel") in ("canonical",)):
                self.links.append(attrs[key])


def broken_links(site: Path) -> tuple[list[tuple[str, str]], int]:
    """The broken relative links of the site built in ``site`` and the number of external links."""
    pages = {}
    for path in site.rglob("*.html"):
        if "_static" in path.relative_to(site).parts:   # the theme's templates, not pages
            continue
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        pages[path.resolve()] = page
    broken, external = [], 0
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme in ("http", "https", "mailto"):
                external += 1
                continue
            if parts.scheme or link.startswith("//"):   # data:, javascript:
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append((str(path.relative_to(site.resolve())), link))
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in pages[target].ids:
                broken.append((str(path.relative_to(site.resolve())), link))
    return broken, external


def main(argv=None) -> int:
    site = Path((argv or sys.argv[1:] or ["docs/_build/html"])[0])
    broken, external = broken_links(site)
    for page, link in broken:
        print(f"{page}: broken link {link}")
    print(f"{len(broken)} broken links; {external} links to other sites not checked offline")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
