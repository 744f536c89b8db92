"""The explorer as a Jupyter widget: the static page's script, asking the kernel for each answer.

The widget is an ``anywidget.AnyWidget`` (``pip install 'vecsearch[notebooks]'``) whose module
is ``explorer.js`` with a ``render`` that mounts the same view as the static page, fed by
``vsxWidgetSource``: each request goes to the kernel as a custom message ``{"id", "request"}``,
is answered by ``Explorer.answer`` and comes back as ``{"id", "answer"}`` (or ``{"id",
"error"}``). So the widget pages through whole layers, however large, one page at a time. What
the user looks at (side, depth, page, selected state, solution step) is synced back to the
``view`` trait. Where widgets do not run (a static render of the notebook), the widget's output
falls back to the static page, which it carries as ``text/html``.
"""

from __future__ import annotations

import functools

from vecsearch.errors import VecsearchError
from vecsearch.explorer.page import fragment, script, snapshot, style
from vecsearch.optional import require

RENDER = "\nexport default { render({ model, el }) { return vsxMountWidget(el, model); } };\n"


def explorer_widget(explorer, per_layer: int):
    """A widget showing ``explorer``; its static fallback holds ``per_layer`` states a layer."""
    return widget_class()(explorer, per_layer)


@functools.cache
def widget_class():
    """The widget class (made on first use: anywidget is optional)."""
    anywidget = require("anywidget", "the explorer's Jupyter widget")
    traitlets = require("traitlets", "the explorer's Jupyter widget")

    class ExplorerWidget(anywidget.AnyWidget):
        """An ``Explorer`` in Jupyter: every page asked of the kernel as it is shown."""

        _esm = script() + RENDER
        _css = style()
        view = traitlets.Dict().tag(sync=True)

        def __init__(self, explorer, per_layer):
            super().__init__()
            self.explorer = explorer
            self.per_layer = per_layer
            self.on_msg(self._reply)

        def _reply(self, _widget, content, _buffers):
            content = content if isinstance(content, dict) else {}
            try:
                self.send({"id": content.get("id"), "answer": self.explorer.answer(content.get("request"))})
            except (VecsearchError, ValueError) as error:
                self.send({"id": content.get("id"), "error": str(error)})

        def _repr_mimebundle_(self, **kwargs):
            data, metadata = super()._repr_mimebundle_(**kwargs)
            data["text/html"] = fragment(snapshot(self.explorer, self.per_layer))
            return data, metadata

    return ExplorerWidget
