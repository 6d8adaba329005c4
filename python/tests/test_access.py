"""mmsim.access: KNI Fig. 2 from Python, and its errors worded as the program words them, with
each flag written as the keyword Python was given (-w -> w=)."""
import re

import pytest

from module_or_skip import import_mmsim

mmsim = import_mmsim()

FIG2 = [[7, 5, 15, 0], [10, 11, 12, 9]]


def test_fig2_takes_7_time_units_on_the_dmm_and_9_on_the_umm():
    dmm = mmsim.access("dmm", 4, 5, FIG2)
    umm = mmsim.access("umm", 4, 5, FIG2)
    assert (dmm["time_units"], dmm["slots"]) == (7, [2, 1])
    assert (umm["time_units"], umm["slots"]) == (9, [3, 2])


def test_access_returns_what_mmsim_access_json_prints(cli_json):
    for model in ("dmm", "umm"):
        assert mmsim.access(model, 4, 5, FIG2) == cli_json("access", "--model", model, "-w", 4, "-l", 5,
                                                           "--warp", "7,5,15,0", "--warp", "10,11,12,9")


def test_none_and_negative_entries_are_inactive_threads_as_underscore_is(cli_json):
    ours = mmsim.access("dmm", 4, 5, [[7, None, 15, -1]])
    assert ours == cli_json("access", "--model", "dmm", "-w", 4, "-l", 5, "--warp", "7,_,15,_")
    assert ours["slots"] == [2]


@pytest.mark.parametrize("model, w, l, warps, cli_args", [
    ("xmm", 4, 5, FIG2, ["--model", "xmm"]),
    ("dmm", 0, 5, FIG2, ["-w", "0"]),
    ("dmm", 4, 0, FIG2, ["-l", "0"]),
    ("dmm", 4, 5, [[1, 2, 3, 4, 5]], ["--warp", "1,2,3,4,5"]),
    ("dmm", 4, 5, [[1, 2]], ["--warp", "1,2"]),
    ("dmm", 4, 5, [[16777216, 0, 0, 0]], ["--warp", "16777216,0,0,0"]),
    ("hmm", 4, 5, FIG2, ["--model", "hmm"]),
])
def test_bad_input_raises_value_error_with_the_programs_line(cli_error, model, w, l, warps, cli_args):
    args = {"--model": "dmm", "-w": "4", "-l": "5"}
    rest = [] if "--warp" in cli_args else ["--warp", "7,5,15,0", "--warp", "10,11,12,9"]
    for i in range(0, len(cli_args), 2):
        if cli_args[i] in args:
            args[cli_args[i]] = cli_args[i + 1]
        else:
            rest += cli_args[i:i + 2]
    expected = cli_error("access", *[x for kv in args.items() for x in kv], *rest)
    keywords = {"--model": "model", "-w": "w", "--width": "w", "-l": "l", "--latency": "l", "--warp": "warps"}
    expected = re.sub(r"(?<![\w-])(--model|--width|--latency|--warp|-w|-l)(?![\w-])",
                      lambda m: keywords[m.group(1)] + "=", expected)
    with pytest.raises(ValueError) as e:
        mmsim.access(model, w, l, warps)
    assert isinstance(e.value, mmsim.InputError)
    assert str(e.value) == expected


@pytest.mark.parametrize("addr, element_bytes, vector, expected", [
    ("t", 4, 1, (4, 1, 4, 1)),        # 32 floats: 128 bytes, coalesced
    ("2*t", 4, 1, (8, 2, 4, 1)),      # stride 2: half of every sector unused
    ("t + 1", 4, 1, (5, 2, 4, 1)),    # misaligned: one sector and one line more
    ("t", 8, 1, (8, 2, 8, 2)),        # doubles: 256 bytes
    ("4*t", 4, 4, (16, 4, 16, 4)),    # float4: 512 bytes
    ("t < 16 ? t : _", 4, 1, (2, 1, 2, 1)),  # half the lanes inactive
])
def test_sectors_count_the_gpus_sectors_and_lines_as_the_command_does(cli_json, addr, element_bytes, vector,
                                                                       expected):
    ours = mmsim.access("umm", 32, 1, addr=addr, element_bytes=element_bytes, vector=vector, sectors=True)
    warp = ours["warps"][0]
    assert (warp["sectors"], warp["lines"], warp["ideal_sectors"], warp["ideal_lines"]) == expected
    assert warp["bytes_moved"] == 32 * warp["sectors"]
    assert ours == cli_json("access", "--model", "umm", "-w", 32, "-l", 1, "--addr", addr, "--element-bytes",
                            element_bytes, "--vector", vector, "--sectors")
    # Without sectors=True the object is the papers' view alone, as before.
    assert "sectors" not in mmsim.access("umm", 32, 1, addr=addr, element_bytes=element_bytes, vector=vector)["warps"][0]


def test_sectors_on_the_dmm_is_refused_naming_the_keyword():
    with pytest.raises(ValueError) as e:
        mmsim.access("dmm", 4, 5, FIG2, sectors=True)
    assert str(e.value).startswith("sectors=: only with model= umm")
