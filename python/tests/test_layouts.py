"""mmsim.layout: the layouts of `mmsim layout` from Python, the same report, refusals and pictures."""
import pytest

from module_or_skip import import_mmsim

mmsim = import_mmsim()


def test_layout_returns_what_mmsim_layout_json_prints(cli_json):
    for text in ("pad", "i*w + (j ^ i)", "Swizzle<3,0,3> o (8,8):(8,1)", "f2:1,2,4,9,18,36"):
        assert mmsim.layout(text, 8).report == cli_json("layout", "--layout", text, "-w", 8)


def test_the_f2_rank_and_the_simulated_congestion_stand_side_by_side():
    a = mmsim.layout("f2:1,2,4,8,16,35,70,140,280,529", 32).accesses
    assert (a["column"]["congestion"], a["column"]["f2_rank_congestion"]) == (2, 2)
    assert a["row"]["congestion"] == 1


def test_a_layout_draws_itself_and_its_tile():
    pad = mmsim.layout("pad", 4)
    assert pad._repr_svg_().startswith("<svg")
    tile = pad.tile([(t, 0) for t in range(4)], "column 0")
    assert "padding, bank 0" in tile._repr_svg_()
    assert "cell (3, 0), bank 3, thread 3" in str(tile)


def test_bad_layouts_raise_the_cli_line():
    with pytest.raises(mmsim.InputError, match="the CuTe shape has size 32 x 16, not w x w = 32 x 32"):
        mmsim.layout("(32,16):(1,32)", 32)
    with pytest.raises(mmsim.InputError, match="the F2 matrix is singular"):
        mmsim.layout("f2:1,2,4,8,16,1", 8)
    with pytest.raises(mmsim.InputError, match="--vector: must be"):
        mmsim.layout("raw", 8, vector=3)
