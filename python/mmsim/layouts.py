"""Layouts of a w x w matrix, as ``mmsim layout`` reads them: a name (raw, ras, rap, pad, xor), an
address expression of the cell (``"i*(w+1) + j"``), a CuTe layout (``"Swizzle<3,2,3> o
(32,32):(32,1)"``) or an F2 one (``"f2:1,2,4,9,18,36"``). In Jupyter a :class:`Layout` draws its
banks, and :meth:`Layout.tile` the matrix with one warp's cells outlined (docs/tutorial.md,
chapters 9 to 11)."""

from . import _mmsim


class Layout:
    """One layout: ``report`` is what ``mmsim layout --layout TEXT -w W --json`` prints (banks,
    language, description and the simulated row, column and diagonal accesses)."""

    def __init__(self, text, w, *, seed=1, element_bytes=4, vector=1):
        self.text, self.w, self.seed = text, w, seed
        self.report = _mmsim.layout(text, w, seed, element_bytes, vector)

    @property
    def banks(self):
        """banks[i][j]: the bank of cell (i, j)."""
        return self.report["banks"]

    @property
    def accesses(self):
        """{"row": {...}, "column": {...}, "diagonal": {...}}: congestion, wavefronts, slots and, for an
        F2 layout, the congestion read off the matrix's rank."""
        return {a["access"]: a for a in self.report.get("accesses", [])}

    def tile(self, cells, caption="one warp's cells"):
        """The tile view with ``cells`` ((i, j) pairs) outlined, drawn inline in Jupyter."""
        return Svg(_mmsim.tile_svg(self.text, self.w, self.seed, [list(c) for c in cells], caption))

    def svg(self):
        return _mmsim.layout_svg(self.text, self.w, self.seed)

    def _repr_svg_(self):
        return self.svg()

    def __repr__(self):
        return "Layout(%s)" % self.report["description"]


class Svg:
    """A picture: ``str(svg)`` is its text; Jupyter draws it."""

    def __init__(self, text):
        self.text = text

    def _repr_svg_(self):
        return self.text

    def __str__(self):
        return self.text


def layout(text, w, *, seed=1, element_bytes=4, vector=1):
    """The :class:`Layout` of ``text`` for a w x w matrix; a bad layout raises InputError with the line
    ``mmsim layout`` prints."""
    return Layout(text, w, seed=seed, element_bytes=element_bytes, vector=vector)
