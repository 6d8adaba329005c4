#include "algorithms/enumeration/entries.h"

#include <numeric>

#include "algorithms/enumeration/involutions.h"
#include "algorithms/enumeration/transpose.h"
#include "io/input_error.h"

namespace mmsim::enumeration {

namespace {

constexpr std::int64_t kMaxCells = static_cast<std::int64_t>(kMaxOutOfPlaceCells);

// The four kinds of run: each takes its own shape options.
enum class Kind {
  InPlace,     // N x N, tile pairs (--order)
  OutOfPlace,  // rows x cols (--order or --rows, --cols)
  ThreadWise,  // N x N, one thread per entry below the diagonal (--order)
  Involution,  // N x N x depth, 3D in place (--order, --depth)
};

// What each algorithm is, and which of the family's options it reads.
struct Variant {
  const char* name;
  const char* paper;
  const char* description;
  Kind kind;
  InPlaceGrid grid;       // Kind::InPlace; Kind::Involution: Naive or Scheme (V1B)
  Scheme scheme;          // InPlaceGrid::Scheme only
  bool band;              // reads --band
  Involution involution;  // Kind::Involution only
};

const std::vector<Variant>& variants() {
  static const std::vector<Variant> all{
      {"transpose-ip-naive", "GL Sect. 3, Listing 2",
       "in-place tile-pair transposition of an --order N matrix, full grid, blocks above the diagonal idle",
       Kind::InPlace, InPlaceGrid::Naive, Scheme::V1, false, Involution::Yxz},
      {"transpose-ip-supergrid", "GL Sect. 3.1, Listings 3-4",
       "in-place, one launch per --region R x R tiles on or below the diagonal", Kind::InPlace, InPlaceGrid::SuperGrid,
       Scheme::V1, false, Involution::Yxz},
      {"transpose-ip-v1", "GL Sect. 3.2, 4.3", "in-place, triangular grid decoded by V1 (rows, left to right)",
       Kind::InPlace, InPlaceGrid::Scheme, Scheme::V1, false, Involution::Yxz},
      {"transpose-ip-v1r", "GL Sect. 4.4", "in-place, triangular grid decoded by V1R (rows, right to left)",
       Kind::InPlace, InPlaceGrid::Scheme, Scheme::V1R, false, Involution::Yxz},
      {"transpose-ip-v1b", "GL Sect. 5.1", "in-place, triangular grid decoded by V1B (bands of --band W tile columns)",
       Kind::InPlace, InPlaceGrid::Scheme, Scheme::V1B, true, Involution::Yxz},
      {"transpose-ip-tw", "GL Sect. 3.2, 7 (TW)",
       "in-place thread-wise: one thread per entry below the diagonal, decoded by V1, swaps two global cells",
       Kind::ThreadWise, InPlaceGrid::Naive, Scheme::V1, false, Involution::Yxz},
      {"transpose-oop-nvidia", "GL Sect. 3, Listing 1",
       "out-of-place --rows R --cols C transposition through a padded shared tile, row-major grid", Kind::OutOfPlace,
       InPlaceGrid::Naive, Scheme::V1, false, Involution::Yxz},
      {"transpose-oop-v1bf", "GL Sect. 6", "out-of-place, tiles visited in V1BF order (bands of --band W tile columns)",
       Kind::OutOfPlace, InPlaceGrid::Naive, Scheme::V1, true, Involution::Yxz},
      {"transpose3d-yxz-naive", "GL Sect. 3.3, Listing 6, Fig. 14",
       "in-place T_yxz of an N x N x --depth Z matrix: every xy plane transposed, full grid per plane",
       Kind::Involution, InPlaceGrid::Naive, Scheme::V1B, false, Involution::Yxz},
      {"transpose3d-yxz-v1b", "GL Sect. 3.3, Listing 7, Fig. 14",
       "in-place T_yxz, each plane's tile pairs decoded by V1B (bands of --band W tile columns)", Kind::Involution,
       InPlaceGrid::Scheme, Scheme::V1B, true, Involution::Yxz},
      {"transpose3d-zyx-naive", "GL Sect. 3.3, Fig. 15",
       "in-place T_zyx of an N x --depth Y x N matrix: every xz slice transposed, full grid per slice",
       Kind::Involution, InPlaceGrid::Naive, Scheme::V1B, false, Involution::Zyx},
      {"transpose3d-zyx-v1b", "GL Sect. 3.3, Fig. 15",
       "in-place T_zyx, each slice's tile pairs decoded by V1B (bands of --band W tile columns)", Kind::Involution,
       InPlaceGrid::Scheme, Scheme::V1B, true, Involution::Zyx},
  };
  return all;
}

std::vector<ParamSpec> params_of(const Variant& v) {
  // Tiles are w x w with one thread per cell: w at most kMaxTileWidth.
  std::vector<ParamSpec> p = machine_params(ModelKind::Hmm, 1, kMaxTileWidth);
  const auto max_order = static_cast<std::int64_t>(kMaxInPlaceOrder);
  if (v.kind == Kind::OutOfPlace) {
    p.push_back(integer_param("order", "--order,-n", "the input is N x N (when --rows is left out)", 1, max_order));
    p.push_back(
        integer_param("rows", "--rows", "rows of the input (default --order); rows x cols at most 2^24", 1, kMaxCells));
    p.push_back(integer_param("cols", "--cols", "columns of the input (default --rows)", 1, kMaxCells));
  } else {
    ParamSpec order = integer_param("order", "--order,-n", "the matrix is N x N", 1, max_order);
    order.required = true;
    p.push_back(order);
  }
  if (v.kind == Kind::Involution)
    p.push_back(integer_param("depth", "--depth",
                              v.involution == Involution::Yxz ? "Z: planes of N x N (N x N x Z at most 2^24 cells)"
                                                              : "Y: slices of N x N (N x Y x N at most 2^24 cells)",
                              1, kMaxCells, 2));
  // A band wider than the tile grid is clamped to it; the widest grid has 2^24 tile columns.
  if (v.band) p.push_back(integer_param("band", "--band", "band width in tiles", 1, kMaxCells, 8));
  if (v.grid == InPlaceGrid::SuperGrid && v.kind == Kind::InPlace)
    p.push_back(integer_param("region", "--region", "region order in tiles", 1, 1024, 8));
  // More resident blocks than a DMM ever gets (the largest grid has 2^24 blocks) change nothing.
  p.push_back(integer_param("resident", "--resident", "blocks per DMM at a time with --async (0: all)", 0,
                            std::int64_t{1} << 20, 2));
  const TlbParams tlb;
  p.push_back(integer_param("tlb_entries", "--tlb-entries", "TLB entries on the global memory (0: no TLB)", 0,
                            std::int64_t{1} << 20, tlb.entries));
  // A page past the largest matrix (2^24 cells) is one page for the whole run.
  p.push_back(integer_param("page_cells", "--page-cells", "TLB page size in cells", 1, kMaxCells,
                            static_cast<std::int64_t>(tlb.page_cells)));
  p.push_back(integer_param("tlb_ways", "--tlb-ways", "TLB associativity (must divide --tlb-entries)", 1,
                            std::int64_t{1} << 20, tlb.ways));
  p.push_back(integer_param("tlb_penalty", "--tlb-penalty", "extra global-memory slots per TLB miss", 0, 100000,
                            tlb.miss_penalty));
  return p;
}

TlbParams tlb_of(const ParamValues& p) {
  TlbParams t;
  t.entries = static_cast<int>(p.integer("tlb_entries"));
  t.page_cells = static_cast<std::uint64_t>(p.integer("page_cells"));
  t.ways = static_cast<int>(p.integer("tlb_ways"));
  t.miss_penalty = static_cast<int>(p.integer("tlb_penalty"));
  if (t.enabled() && t.entries % t.ways != 0)
    throw InputError("--tlb-ways: must divide --tlb-entries (" + std::to_string(t.ways) + " does not divide " +
                     std::to_string(t.entries) + ")");
  return t;
}

// The cells a run holds: the matrix (an out-of-place run holds its output beside it, which the bytes
// per cell cover), named by the options that set its shape.
RunSize size_of(const Variant& v, const RunRequest& req) {
  const ParamValues& p = req.params;
  const auto order = p.integer_if("order");
  if (v.kind == Kind::OutOfPlace) {
    const char* side = p.has("rows") ? "rows" : "order";
    const auto rows = p.integer_if(side);
    if (!rows) return {};  // the run says what is missing
    const auto cols = p.integer_if("cols").value_or(*rows);
    RunSize size{.cells = static_cast<std::uint64_t>(*rows) * static_cast<std::uint64_t>(cols), .options = {side}};
    if (p.has("cols")) size.options.emplace_back("cols");
    return size;
  }
  const auto side = static_cast<std::uint64_t>(*order);  // declared required
  if (v.kind == Kind::Involution)
    return {.cells = side * side * static_cast<std::uint64_t>(p.integer("depth")), .options = {"order", "depth"}};
  return {.cells = side * side, .options = {"order"}};
}

RunReport run_variant(const Variant& v, const RunRequest& req) {
  const ParamValues& p = req.params;
  const TlbParams tlb = tlb_of(p);
  const auto resident = static_cast<std::uint32_t>(p.integer("resident"));
  const auto band = static_cast<std::uint64_t>(p.integer_if("band").value_or(8));
  const auto order = p.integer_if("order");
  const auto w = static_cast<std::uint64_t>(req.machine.w);
  const TlbMachine machine(req.machine, tlb);
  TransposeRun run;
  std::string shape;
  std::uint64_t cells = 0;
  if (v.kind == Kind::OutOfPlace) {
    const auto rows = p.integer_if("rows") ? p.integer_if("rows") : order;
    if (!rows) throw InputError("--rows: required (or --order for a square matrix)");
    const auto cols = p.integer_if("cols").value_or(*rows);
    OutOfPlaceConfig cfg;
    cfg.rows = static_cast<std::uint64_t>(*rows);
    cfg.cols = static_cast<std::uint64_t>(cols);
    cfg.banded = v.band;
    cfg.band = band;
    cfg.resident = resident;
    if (cfg.rows > kMaxOutOfPlaceCells / cfg.cols)
      throw InputError("--rows, --cols: rows x cols must be at most 2^24 cells (got " + std::to_string(cfg.rows) +
                       " x " + std::to_string(cfg.cols) + ")");
    // The output starts on a page and an address-group boundary, lcm(w, page) cells in: keep that
    // within the matrix's own size so a page size cannot blow up the host memory.
    if (tlb.enabled() && std::lcm(w, tlb.page_cells) > kMaxOutOfPlaceCells)
      throw InputError(
          "--page-cells: lcm(w, page-cells) = " + std::to_string(std::lcm(w, tlb.page_cells)) +
          " cells would place the output past 2^24 cells; take a page size that is a multiple of w, or a smaller one");
    check_out_of_place(req.machine, cfg);
    run = run_out_of_place(machine, cfg, req.engine);
    shape = std::to_string(cfg.rows) + " x " + std::to_string(cfg.cols);
    cells = cfg.rows * cfg.cols;
  } else if (v.kind == Kind::ThreadWise) {
    ThreadWiseConfig cfg;
    cfg.order = static_cast<std::uint64_t>(*order);  // declared required
    cfg.resident = resident;
    check_thread_wise(req.machine, cfg);
    run = run_thread_wise(machine, cfg, req.engine);
    shape = std::to_string(cfg.order) + " x " + std::to_string(cfg.order);
    cells = cfg.order * cfg.order;
  } else if (v.kind == Kind::Involution) {
    Involution3DConfig cfg;
    cfg.which = v.involution;
    cfg.order = static_cast<std::uint64_t>(*order);  // declared required
    cfg.depth = static_cast<std::uint64_t>(p.integer("depth"));
    cfg.banded = v.band;
    cfg.band = band;
    cfg.resident = resident;
    if (cfg.order * cfg.order > kMaxInvolutionCells / cfg.depth)
      throw InputError("--order, --depth: the matrix must have at most 2^24 cells (got " + std::to_string(cfg.order) +
                       " x " + std::to_string(cfg.order) + " x " + std::to_string(cfg.depth) + ")");
    check_involution(req.machine, cfg);
    run = run_involution(machine, cfg, req.engine);
    const std::string n = std::to_string(cfg.order), d = std::to_string(cfg.depth);
    shape = v.involution == Involution::Yxz ? n + " x " + n + " x " + d : n + " x " + d + " x " + n;
    cells = cfg.order * cfg.order * cfg.depth;
  } else {
    InPlaceConfig cfg;
    cfg.order = static_cast<std::uint64_t>(*order);  // declared required
    cfg.grid = v.grid;
    cfg.scheme = v.scheme;
    cfg.band = band;
    cfg.region = static_cast<std::uint64_t>(p.integer_if("region").value_or(8));
    cfg.resident = resident;
    check_in_place(req.machine, cfg);
    run = run_in_place(machine, cfg, req.engine);
    shape = std::to_string(cfg.order) + " x " + std::to_string(cfg.order);
    cells = cfg.order * cfg.order;
  }

  RunReport r;
  r.n = cells;
  r.permutation = v.kind == Kind::Involution ? std::string("transpose3d-") + to_string(v.involution) : "transpose";
  r.stats = std::move(run.stats);
  r.correct = run.correct;
  r.trace = std::move(run.trace);
  r.figure("matrix", shape);
  if (run.band_used) r.figure("band", static_cast<std::int64_t>(run.band_used), "tiles (clamped to the tile grid)");
  r.figure("blocks", static_cast<std::int64_t>(run.blocks));
  r.figure("idle_blocks", static_cast<std::int64_t>(run.idle_blocks), "(no tile to move)");
  r.figure("launches", static_cast<std::int64_t>(run.launches));
  r.figure("global_slots", static_cast<std::int64_t>(run.global_slots), "(TLB penalty included)");
  r.figure("tlb", tlb.enabled() ? std::to_string(tlb.entries) + " entries, " + std::to_string(tlb.ways) +
                                      "-way LRU, pages of " + std::to_string(tlb.page_cells) + " cells, " +
                                      std::to_string(tlb.miss_penalty) + " slots per miss"
                                : std::string("off"));
  r.figure("tlb_lookups", static_cast<std::int64_t>(run.tlb.lookups), "(distinct pages per warp access)");
  r.figure("tlb_hits", static_cast<std::int64_t>(run.tlb.hits));
  r.figure("tlb_misses", static_cast<std::int64_t>(run.tlb.misses));
  return r;
}

}  // namespace

std::vector<AlgorithmEntry> algorithm_entries() {
  std::vector<AlgorithmEntry> out;
  for (const Variant& v : variants()) {
    const Variant* vp = &v;
    out.push_back({.name = v.name,
                   .family = "enumeration",
                   .paper = v.paper,
                   .description = v.description,
                   .machine = ModelKind::Hmm,
                   .params = params_of(v),
                   .size = [vp](const RunRequest& req) { return size_of(*vp, req); },
                   .run = [vp](const RunRequest& req) { return run_variant(*vp, req); }});
  }
  return out;
}

void append_catalogue(std::vector<CatalogueEntry>& out) {
  out.push_back({"option", "--tlb-entries E",
                 "transpose-*: a TLB of E entries on the global memory (--page-cells, --tlb-ways, --tlb-penalty slots "
                 "per miss)",
                 "GL Sect. 3.1"});
  out.push_back(
      {"gpu", "mmsim gpu enumeration",
       "every transpose-ip-* (TW included) and transpose-oop-* by order, the four transpose3d-* at depths 2, 3 "
       "and 4 (enumeration_3d.csv), every cell checked on the GPU; scripts/gpu_enumeration_figures.sh draws "
       "them",
       "GL Sect. 7, Figs. 9-15"});
}

}  // namespace mmsim::enumeration
