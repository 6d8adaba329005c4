// `mmsim access`: one memory instruction of a few warps on a DMM or a UMM, explained request by
// request (bank or address group, slot, merges), with the pipeline diagram of KNI Fig. 2. The access
// is given warp by warp (--warp), as an address expression of the thread (--addr), or as a cell
// expression through a layout (--layout, --cell); teaching/posed_access.h reads them.
#include <unistd.h>

#include <algorithm>

#include "cli/common.h"
#include "io/output_file.h"
#include "io/output_path.h"
#include "teaching/access.h"
#include "teaching/layout_view.h"
#include "teaching/posed_access.h"

namespace mmsim::cli {

namespace {
// The widest matrix whose tile view the text output draws (wider: --svg draws it).
constexpr int kMaxTileTextWidth = 64;
}  // namespace

Runner add_access_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("access", "slots and time units of one warp access on a DMM or UMM, explained (KNI Fig. 2)");
  struct Opts {
    std::string model = "dmm";
    int w = 4;
    int l = 5;
    std::vector<std::string> warps;
    std::string addr, layout, cell;
    std::uint64_t threads = 0;
    std::uint64_t seed = 1;
    bool json = false;
    std::uint32_t element_bytes = 4, vector = 1;
    std::string op = "read";
    std::vector<std::string> regs;
    std::uint64_t tile_warp = 0;
    std::string svg;
    bool sectors = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("--model", o->model, "dmm or umm")->capture_default_str();
  add_integer_option(*cmd, o->w, teaching::access_width_param());
  add_integer_option(*cmd, o->l, teaching::access_latency_param());
  auto* warp =
      cmd->add_option("--warp", o->warps,
                      "the w addresses of one warp, comma separated, _ for an inactive thread; repeat per warp")
          ->take_all()
          ->allow_extra_args(false);
  auto* addr = cmd->add_option("--addr", o->addr,
                               "address of thread t as an expression of t, i (= t mod w), j (= t / w), w, p; _ or a "
                               "negative value: inactive (e.g. 't*33', '(t%w)*w + t/w')");
  auto* cell = cmd->add_option("--cell", o->cell,
                               "cell of thread t under --layout: 'E_i, E_j' (w x w matrix) or four expressions (w^4 "
                               "array), in t, i, j, w, p (e.g. 't, t' under xor)");
  auto* layout = cmd->add_option("--layout", o->layout,
                                 "layout of the matrix for --cell: raw, ras, rap, pad, xor, an address expression of "
                                 "the cell (i, j), a CuTe layout SHAPE:STRIDE (with Swizzle<B,M,S> o) or an F2 one "
                                 "f2:BASES (docs/tutorial.md); for four coordinates raw, ras, 1p, r1p, 3p, w2p, "
                                 "1pw2r");
  auto* threads =
      add_integer_option(*cmd, o->threads,
                         integer_param("threads", "--threads", "threads of an --addr or --cell access (default w)", 1,
                                       static_cast<std::int64_t>(teaching::kMaxPosedThreads)));
  ParamSpec seed_spec = seed_param();
  seed_spec.help = "seed of a random layout (as in mmsim run and mmsim layout)";
  auto* seed = add_integer_option(*cmd, o->seed, seed_spec);
  add_integer_option(*cmd, o->element_bytes, teaching::access_element_bytes_param());
  add_integer_option(*cmd, o->vector, teaching::access_vector_param());
  cmd->add_option("--op", o->op,
                  "read, write, or an atomic update: atomic-add, atomic-min, atomic-max, atomic-exch, atomic-cas, "
                  "increment (an add of 1 whose result is unused: a histogram's count)")
      ->capture_default_str();
  cmd->add_option("--reg", o->regs,
                  "NAME=v0,v1,...: a register each thread loaded earlier (one value per thread), named "
                  "in --addr (e.g. --reg key=5,3,3,0 --addr key); repeat for more")
      ->allow_extra_args(false);
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->add_flag("--sectors", o->sectors,
                "UMM: also show each warp in the GPU's 32-byte sectors and 128-byte lines (the predictor's "
                "coalescer), with the ideal counts; --svg then draws this view");
  auto* tile_warp =
      add_integer_option(*cmd, o->tile_warp,
                         integer_param("tile_warp", "--tile-warp",
                                       "the warp whose cells the tile view of a --layout access outlines (default 0)",
                                       0, static_cast<std::int64_t>(teaching::kMaxPosedThreads)));
  auto* svg = cmd->add_option("--svg", o->svg,
                              "also write the tile view of a --layout access (the matrix, its padding, the banks and "
                              "one warp's cells), or with --sectors the sector view, as an SVG picture to this file");
  return [=] {
    // With --sectors, --svg draws the sector view, which needs no layout.
    const bool tile_svg = svg->count() && !o->sectors;
    if ((tile_warp->count() || tile_svg) && !layout->count())
      throw InputError(std::string(tile_svg ? "--svg" : "--tile-warp") +
                       ": only with --layout (the tile view draws the layout's matrix)");
    if (svg->count()) check_output_file("--svg", o->svg);  // before any work
    teaching::AccessRequest r;
    r.model = o->model;
    r.w = o->w;
    r.l = o->l;
    if (warp->count()) r.warp_texts = o->warps;
    if (addr->count()) r.addr = o->addr;
    if (layout->count()) r.layout = o->layout;
    if (cell->count()) r.cell = o->cell;
    if (threads->count()) r.threads = static_cast<std::int64_t>(o->threads);
    if (seed->count()) r.seed = static_cast<std::int64_t>(o->seed);
    r.element_bytes = o->element_bytes;
    r.vector = o->vector;
    r.op = o->op;
    r.registers = o->regs;
    const teaching::PosedRequest request = teaching::pose_request(r);
    const MachineParams& m = request.machine;
    const teaching::PosedAccess& posed = request.posed;
    auto result = teaching::simulate_access(m, posed.warps, posed.cells, request.shaped.shape, request.shaped.op);
    result.posed = posed.posed;
    result.layout = posed.layout;
    if (o->sectors) teaching::add_sectors(result);
    // The tile view of a matrix access: the layout drawn with warp --tile-warp's cells outlined.
    std::optional<teaching::AccessTile> tile;
    if (layout->count()) tile = teaching::access_tile(posed, o->layout, m.w, o->seed, o->tile_warp);
    if (!tile && (tile_warp->count() || tile_svg))
      throw InputError(std::string(tile_svg ? "--svg" : "--tile-warp") + ": only for a w x w matrix's cells");
    if (o->sectors && !o->svg.empty())
      write_file_atomically(o->svg, teaching::sector_svg(result), "--svg");
    else if (tile && !o->svg.empty())
      write_file_atomically(o->svg, teaching::tile_svg(tile->layout, tile->outlined, tile->caption), "--svg");
    if (o->json) {
      print_json(teaching::to_json(result));
    } else {
      std::string text = teaching::diagram(result);
      if (tile && m.w <= kMaxTileTextWidth)
        text += "\n" + teaching::tile_text(tile->layout, tile->outlined, isatty(STDOUT_FILENO) != 0, tile->caption);
      std::cout << text;
    }
    return kOk;
  };
}

}  // namespace mmsim::cli
