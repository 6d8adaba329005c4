// The explorer's entry points: what the page in explorer/web/ asks of mmsim, as plain C++ over the
// registry, the engine and the teaching views. Every function takes the page's values as the texts
// a user typed (in the URL or a form), checks them with the same rules as the command line, and
// returns one JSON object: the same facts as the matching `mmsim ... --json`, or {"error": "..."}
// with the command line's one-line message. bindings.cpp hands them to JavaScript (embind).
#pragma once

#include <string>

namespace mmsim::explorer {

/// `mmsim access`: model "dmm" or "umm", w, l, and the access posed one way: `warps` (warps
/// separated by ';', each w comma-separated fields as in --warp), `addr` (with `threads`, empty:
/// w) or `layout` with `cell` (and `seed`). What each thread moves and how, as --element-bytes,
/// --vector and --op take them (empty: 4, 1, read), and `registers` for `addr`: the --reg texts
/// NAME=v0,v1,... separated by ';'. Returns teaching::to_json(AccessResult), and for the cells of
/// a w x w matrix "tile_svg": the tile view `--svg` writes, warp `tile_warp`'s cells outlined (empty:
/// 0; null beyond w = kMaxLayoutWidth, too large to draw on a page).
std::string access(const std::string& model, const std::string& w, const std::string& l, const std::string& warps,
                   const std::string& addr, const std::string& layout, const std::string& cell,
                   const std::string& threads, const std::string& seed, const std::string& element_bytes,
                   const std::string& vector, const std::string& op, const std::string& registers,
                   const std::string& tile_warp);

/// `mmsim layout --json` for a w x w matrix (w up to kMaxLayoutWidth) under any layout
/// teaching::parse_layout reads (a name, a cell expression, CuTe, F2), plus "by_index": for every
/// row i (read by crsw, written by srcw), column j (read by srcw, written by crsw) and diagonal d
/// (drdw, NMI Sect. III) the access of one warp as `mmsim access --layout --cell` poses it, with its
/// cell expression, congestion and the banks that set it.
std::string layout(const std::string& name, const std::string& w, const std::string& seed);
inline constexpr int kMaxLayoutWidth = 64;

/// Every registered algorithm with its parameters (`mmsim list --json`'s "algorithms").
std::string algorithms();

/// `mmsim run NAME --json` for `query`, the parameters as "name=value&name=value" (a flag as
/// "name=true"), run round-synchronously and, where the algorithm allows it, asynchronously:
/// {"round_synchronous": report, "asynchronous": report or null, "traces": {...: trace summary},
/// "svgs": {...: trace SVG}, "time_axis"}, the traces drawn from the runs' own slots on one time
/// axis of time_axis time units (the longer run's), so that both have one scale. Runs above kMaxRunCells
/// cells (as the algorithm's entry states its size) are refused, and so are parameters that name
/// files (a page has none).
std::string run(const std::string& name, const std::string& query);
inline constexpr long kMaxRunCells = 4096;

/// `mmsim trace FILE --json` for the text of a trace CSV, with "svg": the lanes picture.
std::string trace(const std::string& csv, const std::string& file);

/// `mmsim run --kernel FILE --json` for the text of a kernel file (docs/kernel-files.md) named
/// `file`: the same parser, checks, run and report, refusals in the same one line.
std::string kernel(const std::string& text, const std::string& file);

}  // namespace mmsim::explorer
