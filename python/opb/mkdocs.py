"""The MkDocs plugin `opb` (`plugins: [opb]` in mkdocs.yml).

An ```` ```openplaybook ```` or ```` ```oz0-plugin ```` fence, and an
`<!-- opb render PATH -->` include on a line of its own, become the
fragment `opb render --format fragment` writes for that document: its
step graph, trust summary or report, and its problems, with a style of its
own whose `auto` colours follow the site's dark palette. The fragment is
written by the `opb` binary this package installed, so a MkDocs page says
what the npm package's Markdown plugins and the CLI say.

The fences are found by a Python-Markdown preprocessor the plugin adds to
the site's extensions, which runs before the fenced-code ones (Python-
Markdown's own and pymdownx.superfences): it follows every fence from its
opening to its closing line, so a fence shown inside a longer fence stays
code, and an indented code block, whose lines start with four spaces, is
never read as a fence. The fragment goes into Markdown's store of raw HTML,
so nothing in it is read as Markdown.

A document with errors is shown with its problems, and each error is
logged as a warning, which `mkdocs build --strict` turns into a failed
build; the plugin's `strict: true`, or a fence's `strict`, fails the build
at once.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess

from markdown import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger

from opb import find_opb_bin

log = get_plugin_logger(__name__)

# A fence's language, and the kind its document is read as (`opb --kind`).
LANGUAGES = {"openplaybook": "playbook", "oz0-plugin": "plugin"}

THEMES = ("light", "dark", "auto")
VIEWS = ("graph", "summary", "report")

# Material for MkDocs marks its dark palette (the `slate` scheme) on <body>.
MATERIAL_DARK = '[data-md-color-scheme="slate"]'

# A fence's opening line (CommonMark): at most three spaces, then three or
# more backticks or tildes, then the info string (which a backtick fence's
# may not hold a backtick in).
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<marker>`{3,}|~{3,})(?P<info>.*)$")
# An include, alone on its line.
INCLUDE = re.compile(r"^(?P<indent> {0,3})<!--\s*opb\s+render\s+(?P<words>.*?)\s*-->\s*$")


class OpbConfig(Config):
    theme = config_options.Choice(THEMES, default="auto")
    view = config_options.Choice(VIEWS, default="graph")
    strict = config_options.Type(bool, default=False)
    dark_selector = config_options.Type(str, default=MATERIAL_DARK)


class OpbPlugin(BasePlugin[OpbConfig]):
    """Adds the preprocessor to the site's Markdown, and tells it which
    page it is reading."""

    def __init__(self) -> None:
        self.extension: OpbExtension | None = None

    def on_config(self, config):
        self.extension = OpbExtension(Renderer(self.config))
        config.markdown_extensions.append(self.extension)
        return config

    def on_page_markdown(self, markdown, page, config, files):
        # MkDocs took the page's front matter off: the fences' lines are
        # counted in the file as its author sees it.
        source = page.file.content_string
        skipped = source.count("\n") - markdown.count("\n") if source.endswith(markdown) else 0
        # A page another plugin generated has no file: its includes start
        # at the docs folder.
        folder = os.path.dirname(page.file.abs_src_path) if page.file.abs_src_path else config.docs_dir
        self.extension.page = Page(page.file.src_uri, folder, skipped)
        return markdown


class Page:
    """The page being read: its name in the docs (`guide/index.md`), its
    folder (where an include's path starts) and how many lines of its file
    precede the Markdown."""

    def __init__(self, name: str, folder: str, skipped: int) -> None:
        self.name = name
        self.folder = folder
        self.skipped = skipped


class Renderer:
    """Runs the package's `opb render --format fragment`."""

    def __init__(self, config: OpbConfig) -> None:
        self.defaults = {"view": config.view, "theme": config.theme, "strict": config.strict}
        self.dark_selector = config.dark_selector
        try:
            self.opb = find_opb_bin()
        except FileNotFoundError as missing:
            raise PluginError(f"opb: {missing}") from None

    def options(self, words: list[str], where: str) -> dict:
        """The plugin's options with `words` (`view=summary theme=dark
        strict`) over them; a flag alone is true."""
        options = dict(self.defaults)
        for word in words:
            key, _, value = word.partition("=")
            if key == "strict":
                if value not in ("", "true", "false"):
                    raise PluginError(f"opb: {where}: strict is true or false, not {value!r}")
                options["strict"] = value != "false"
            elif key in ("view", "theme"):
                choices = VIEWS if key == "view" else THEMES
                if value not in choices:
                    raise PluginError(f"opb: {where}: {key} is one of {', '.join(choices)}, not {value!r}")
                options[key] = value
            else:
                raise PluginError(
                    f"opb: {where}: the option {key!r} is not one opb's MkDocs plugin takes: view, theme, strict"
                )
        return options

    def fragment(self, options: dict, where: str, cwd: str, path: str, text: str | None, kind: str | None) -> str:
        """The fragment of the document at `path` (read from `cwd`), or of
        `text` named `where`. With strict, a document with an error fails
        the build; without, each error is a warning, which MkDocs' own
        `--strict` turns into a failed build."""
        command = [self.opb, "render", "--format", "fragment", "--color", "never"]
        command += ["--view", options["view"], "--theme", options["theme"], "--dark-selector", self.dark_selector]
        if kind:
            command += ["--kind", kind]
        if text is not None:
            command += ["--stdin-name", where]
        # After `--`, a path that starts with `-` is still a path.
        document = ["--", path]
        checked = self.run([*command, "--strict", *document], cwd, text, where)
        if checked.returncode == 0:
            return checked.stdout
        failure = said(checked.stderr)
        if text is None:
            # opb names the file; the page names the include.
            failure = f"{where}: {failure}"
        if options["strict"]:
            raise PluginError(f"opb: {failure}")
        log.warning(failure)
        shown = self.run([*command, *document], cwd, text, where)
        if shown.returncode != 0:
            raise PluginError(f"opb: {where}: {said(shown.stderr)}")
        return shown.stdout

    def run(self, command: list[str], cwd: str, text: str | None, where: str) -> subprocess.CompletedProcess:
        result = subprocess.run(command, cwd=cwd, input=text, capture_output=True, text=True, encoding="utf-8")
        # 1 is a document with an error under --strict; anything else that
        # is not 0 is opb refusing what it was asked (a path it cannot
        # read, an option), which no page should hide.
        if result.returncode not in (0, 1):
            raise PluginError(f"opb: {where}: {said(result.stderr)}")
        return result


def said(stderr: str) -> str:
    """What opb said on standard error, as one message: its first line,
    then each note indented under it."""
    lines = [line.removeprefix("error: ").removeprefix("note: ") for line in stderr.strip().splitlines()]
    return "\n  ".join(lines)


class OpbExtension(Extension):
    def __init__(self, renderer: Renderer) -> None:
        super().__init__()
        self.renderer = renderer
        self.page: Page | None = None

    def extendMarkdown(self, md) -> None:
        # After whitespace is normalised (30), before any fenced-code
        # preprocessor (25) reads the fences as code.
        md.preprocessors.register(FragmentPreprocessor(md, self), "opb", 29)


class FragmentPreprocessor(Preprocessor):
    def __init__(self, md, extension: OpbExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        page = self.extension.page
        if page is None:
            return lines
        out: list[str] = []
        at = 0
        while at < len(lines):
            line = lines[at]
            fence = FENCE.match(line)
            if fence and not (fence["marker"][0] == "`" and "`" in fence["info"]):
                end, closed = closing(lines, at, fence["marker"])
                words = fence["info"].split()
                kind = LANGUAGES.get(words[0]) if words else None
                if kind is None:
                    out.extend(lines[at:end])
                else:
                    content = lines[at + 1 : end - 1 if closed else end]
                    body = [strip_indent(line, len(fence["indent"])) for line in content]
                    where = f"the {words[0]} fence at line {at + 1 + page.skipped} of {page.name}"
                    options = self.extension.renderer.options(words[1:], where)
                    html = self.extension.renderer.fragment(options, where, page.folder, "-", "\n".join(body) + "\n", kind)
                    out.extend(self.stashed(fence["indent"], html))
                at = end
                continue
            include = INCLUDE.match(line)
            if include:
                where = f"the opb render include at line {at + 1 + page.skipped} of {page.name}"
                try:
                    words = shlex.split(include["words"])
                except ValueError as error:
                    raise PluginError(f"opb: {where}: {error}") from None
                if not words:
                    raise PluginError(f"opb: {where}: name the document to render, as in <!-- opb render playbook.yaml -->")
                options = self.extension.renderer.options(words[1:], where)
                html = self.extension.renderer.fragment(options, where, page.folder, words[0], None, None)
                out.extend(self.stashed(include["indent"], html))
                at += 1
                continue
            out.append(line)
            at += 1
        return out

    def stashed(self, indent: str, html: str) -> list[str]:
        """The fragment kept in Markdown's raw HTML store, as a paragraph of
        its own, which Markdown swaps for the fragment untouched: a blank
        line before it and two after, so it ends its paragraph even as the
        text's last line (a fence never closed)."""
        return ["", indent + self.md.htmlStash.store(html.strip()), "", ""]


def closes(line: str, marker: str) -> bool:
    """Whether `line` closes a fence opened with `marker`: at most three
    spaces, at least as many of the same character, nothing after."""
    stripped = line.rstrip()
    body = stripped.lstrip(" ")
    return (
        len(stripped) - len(body) <= 3
        and len(body) >= len(marker)
        and body == marker[0] * len(body)
    )


def closing(lines: list[str], opening: int, marker: str) -> tuple[int, bool]:
    """The index after the fence opened at `opening`, and whether it was
    closed: after its closing line, or the end of the text for a fence
    never closed (which CommonMark ends there)."""
    for at in range(opening + 1, len(lines)):
        if closes(lines[at], marker):
            return at + 1, True
    return len(lines), False


def strip_indent(line: str, indent: int) -> str:
    """`line` without up to `indent` leading spaces, as CommonMark takes a
    fence's indentation off its content."""
    spaces = len(line) - len(line.lstrip(" "))
    return line[min(spaces, indent) :]
