"""A MkDocs hook: `<!-- opb render PATH [--theme light|dark] -->` on a line of
its own becomes the step graph `opb render` draws for PATH (relative to
mkdocs.yml), inlined as SVG when the site is built. The page then needs no
script. `OPB` names the opb binary (default: `opb` on PATH)."""

import os
import re
import subprocess

OPB = os.environ.get("OPB", "opb")
MARK = re.compile(r"^<!--\s*opb render (\S+)((?: --theme (?:light|dark))?)\s*-->$", re.MULTILINE)


def on_page_markdown(markdown, page, config, files):
    here = os.path.dirname(config["config_file_path"])

    def render(match):
        path = os.path.join(here, match.group(1))
        command = [OPB, "render", path] + match.group(2).split()
        svg = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        # A block element, so Markdown passes the drawing through untouched.
        return '<div class="opb-graph">\n' + svg.strip() + "\n</div>"

    return MARK.sub(render, markdown)
