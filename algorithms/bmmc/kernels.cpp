#include "algorithms/bmmc/kernels.h"

#include <algorithm>
#include <stdexcept>

#include "algorithms/bmmc/bmmc_time.h"
#include "algorithms/bmmc/tiled.h"
#include "algorithms/closed_forms.h"
#include "algorithms/permutations/permutation_algorithm.h"
#include "io/input_error.h"
#include "sim/names.h"

namespace mmsim::bmmc {

using f2::BitVector;

namespace {
constexpr NameTable<KernelKind, 4> kNames{{{{KernelKind::Naive, "naive"},
                                            {KernelKind::Tile, "tile"},
                                            {KernelKind::TileBanks, "tile-banks"},
                                            {KernelKind::TileBanksIters, "tile-banks-iters"}}}};
}  // namespace

const char* to_string(KernelKind k) { return kNames.name(k); }
std::optional<KernelKind> parse_kernel(const std::string& name) { return kNames.parse(name); }
std::span<const KernelKind> all_kernels() { return kNames.values(); }

namespace {

int log2_exact(int w) { return __builtin_ctz(static_cast<unsigned>(w)); }

// The lowest `count` set bits of mask.
BitVector lowest_bits_of(BitVector mask, int count) {
  BitVector out = 0;
  for (int i = 0; i < count && mask != 0; ++i, mask &= mask - 1) out |= mask & (~mask + 1);
  return out;
}

}  // namespace

TileLayout tile_layout(const f2::Bmmc& f, int t, int iters) {
  const auto rows = f2::tile_row_bits(f.a, t);
  if (!rows) throw std::invalid_argument("tile_layout: the BMMC is not tiled for this width");
  TileLayout lay;
  lay.bits = f.bits();
  lay.t = t;
  lay.col = f2::low_bits(t);
  lay.row = *rows;
  lay.over = lay.row & lay.col;
  if (iters < 0 || iters > lay.free_bits()) throw std::invalid_argument("tile_layout: iters out of range");
  lay.iters = iters;
  const BitVector rest = f2::low_bits(lay.bits) & ~(lay.row | lay.col);
  lay.iter = lowest_bits_of(rest, iters);
  lay.block = rest & ~lay.iter;
  return lay;
}

Kernel tiled_kernel(const f2::Bmmc& f, const TileLayout& lay, bool banks, ArrayId src, ArrayId tile, ArrayId dst,
                    std::string name) {
  const int t = lay.t;
  const std::uint64_t w = std::uint64_t{1} << t;
  // Bits that only index tile rows, and bits that only index tile columns: as many of each.
  const BitVector row_only = lay.row & ~lay.col, col_only = lay.col & ~lay.row;
  const std::uint64_t cells = lay.tile_cells();
  // The tile is 2^(t - over) rows of w cells; element x sits in row extract(x, row-only bits) and
  // column x mod w. With `banks`, row r is rotated by deposit(r, column-only bits) (Sect. 4.2): in
  // the read phase a warp fills one row (any rotation keeps it conflict-free); in the write phase a
  // warp fixes the column-only bits and spans the over bits and the rows, and the over bits plus
  // the rotation then cover every bank once.
  const auto tile_pos = [=](BitVector x) -> Address {
    const BitVector r = f2::extract(x, row_only);
    const BitVector shift = banks ? f2::deposit(r, col_only) : 0;
    return r * w + (((x & lay.col) + shift) & (w - 1));
  };
  // Read phase: the lane gives the tile column bits, the warp the row-only bits (Sect. 4.1's
  // stitch_col), so a warp reads w consecutive cells.
  const auto read_index = [=](const Thread& th, std::uint64_t it) -> BitVector {
    const BitVector lane = th.local() & (w - 1), warp = th.local() >> t;
    return lane | f2::deposit(warp, row_only) | f2::deposit(th.block(), lay.block) | f2::deposit(it, lay.iter);
  };
  // Write phase: the lane gives the tile row bits, the warp the column-only bits (stitch_row). The
  // rows of A below t vanish on the tile row bits, so a warp's outputs share their high bits and
  // their low t bits run over all w values: w consecutive cells.
  const auto write_index = [=](const Thread& th, std::uint64_t it) -> BitVector {
    const BitVector lane = th.local() & (w - 1), warp = th.local() >> t;
    return f2::deposit(warp, col_only) | f2::deposit(lane, lay.row) | f2::deposit(th.block(), lay.block) |
           f2::deposit(it, lay.iter);
  };

  Kernel k;
  k.name = std::move(name);
  k.blocks = lay.blocks();
  k.threads_per_block = lay.threads_per_block();
  k.registers = 1;
  const std::uint64_t reps = std::uint64_t{1} << lay.iters;
  const auto suffix = [reps](std::uint64_t it) { return reps > 1 ? " [" + std::to_string(it) + "]" : std::string(); };
  for (std::uint64_t it = 0; it < reps; ++it) {
    k.steps.push_back(Access{"read src" + suffix(it), Op::Read, src, 0,
                             [=](const Thread& th) -> Address { return read_index(th, it); }});
    k.steps.push_back(Access{"write tile" + suffix(it), Op::Write, tile, 0,
                             [=](const Thread& th) -> Address { return it * cells + tile_pos(read_index(th, it)); }});
  }
  k.steps.push_back(BlockBarrier{});
  for (std::uint64_t it = 0; it < reps; ++it) {
    k.steps.push_back(Access{"read tile" + suffix(it), Op::Read, tile, 0,
                             [=](const Thread& th) -> Address { return it * cells + tile_pos(write_index(th, it)); }});
    k.steps.push_back(Access{"write dst" + suffix(it), Op::Write, dst, 0,
                             [=](const Thread& th) -> Address { return f.apply(write_index(th, it)); }});
  }
  return k;
}

Kernel naive_kernel(const f2::Bmmc& f, int w, ArrayId src, ArrayId dst, std::string name) {
  Kernel k;
  k.name = std::move(name);
  k.threads_per_block = static_cast<std::uint32_t>(w);
  k.blocks = (std::uint64_t{1} << f.bits()) / static_cast<std::uint64_t>(w);
  k.registers = 1;
  k.steps = {Access{"read src", Op::Read, src, 0, [](const Thread& th) -> Address { return th.id(); }},
             Access{"write dst", Op::Write, dst, 0, [f](const Thread& th) -> Address { return f.apply(th.id()); }}};
  return k;
}

std::uint64_t bmmc_distribution(const f2::Bmmc& f, int w) {
  const std::uint64_t n = std::uint64_t{1} << f.bits(), uw = static_cast<std::uint64_t>(w);
  std::vector<std::uint64_t> groups(uw);
  std::uint64_t d = 0;
  for (std::uint64_t base = 0; base < n; base += uw) {
    for (std::uint64_t i = 0; i < uw; ++i) groups[i] = f.apply(base + i) / uw;
    std::sort(groups.begin(), groups.end());
    d += static_cast<std::uint64_t>(std::unique(groups.begin(), groups.end()) - groups.begin());
  }
  return d;
}

namespace {

int pass_iters(const BmmcOptions& o, const TileLayout& probe) {
  if (o.kernel != KernelKind::TileBanksIters) return 0;
  return o.iters ? *o.iters : std::min(kDefaultIters, probe.free_bits());
}

std::vector<f2::Bmmc> passes_of(const MachineParams& m, const f2::Bmmc& f, const BmmcOptions& o) {
  if (o.kernel == KernelKind::Naive) return {f};
  return f2::tiled_factors(f, log2_exact(m.w));
}

}  // namespace

void check_bmmc(const MachineParams& m, const f2::Bmmc& f, const BmmcOptions& o) {
  if (m.model != ModelKind::Hmm) throw InputError("--model: the BMMC kernels run on the HMM");
  if (m.w < 1 || (m.w & (m.w - 1)) != 0)
    throw InputError("w: the BMMC kernels need a power of two (w = " + std::to_string(m.w) + ")");
  const int t = log2_exact(m.w);
  if (f.bits() < t)
    throw InputError("-n: must be at least w (n = 2^" + std::to_string(f.bits()) + ", w = " + std::to_string(m.w) +
                     ")");
  // The kernels allocate and visit 2^bits cells (and 1 << 64 would be undefined).
  if (f.bits() > f2::kMaxSimulatedBits)
    throw InputError("-n: at most 2^" + std::to_string(f2::kMaxSimulatedBits) + " cells on the simulator (n = 2^" +
                     std::to_string(f.bits()) + ")");
  if (!f2::invertible(f.a)) throw InputError("matrix: singular over F2");
  if (o.iters && o.kernel != KernelKind::TileBanksIters)
    throw InputError("--iters: only with --kernel tile-banks-iters");
  if (o.iters) {
    if (*o.iters < 0) throw InputError("--iters: must be >= 0");
    for (const auto& p : passes_of(m, f, o)) {
      const TileLayout lay = tile_layout(p, t, 0);
      if (*o.iters > lay.free_bits())
        throw InputError("--iters: at most " + std::to_string(lay.free_bits()) +
                         " here (index bits outside one tile of a pass)");
    }
  }
}

std::uint64_t shared_cells_needed(const MachineParams& m, const f2::Bmmc& f, const BmmcOptions& o) {
  if (o.kernel == KernelKind::Naive) return 0;
  std::uint64_t cells = 0;
  const int t = log2_exact(m.w);
  for (const auto& p : passes_of(m, f, o)) {
    const TileLayout probe = tile_layout(p, t, 0);
    cells = std::max(cells, tile_layout(p, t, pass_iters(o, probe)).shared_cells());
  }
  return cells;
}

std::vector<PassReport> launch_bmmc(Engine& engine, const MachineParams& m, const f2::Bmmc& f, const BmmcOptions& o,
                                    ArrayId src, ArrayId dst, ArrayId scratch, ArrayId tile) {
  const auto n = static_cast<std::int64_t>(std::uint64_t{1} << f.bits());
  std::vector<PassReport> out;
  if (o.kernel == KernelKind::Naive) {
    const KernelStats ks = engine.launch(naive_kernel(f, m.w, src, dst, "bmmc naive"));
    PassReport r;
    r.kernel = ks.name;
    r.blocks = n / m.w;
    r.threads_per_block = static_cast<std::uint32_t>(m.w);
    r.time_units = ks.time_units;
    r.predicted = closed_form::naive_pass(n, m.w, m.L, static_cast<std::int64_t>(bmmc_distribution(f, m.w)));
    out.push_back(r);
    return out;
  }
  const int t = log2_exact(m.w);
  const auto factors = passes_of(m, f, o);
  const bool banks = o.kernel != KernelKind::Tile;
  for (std::size_t i = 0; i < factors.size(); ++i) {
    const TileLayout probe = tile_layout(factors[i], t, 0);
    const TileLayout lay = tile_layout(factors[i], t, pass_iters(o, probe));
    if (engine.array(tile).size < lay.shared_cells())
      throw std::logic_error("launch_bmmc: shared tile array too small");
    const ArrayId from = i == 0 ? src : scratch;
    const ArrayId to = i + 1 == factors.size() ? dst : scratch;
    std::string name = std::string("bmmc ") + to_string(o.kernel);
    if (factors.size() > 1) name += " pass " + std::to_string(i + 1) + "/" + std::to_string(factors.size());
    const KernelStats ks = engine.launch(tiled_kernel(factors[i], lay, banks, from, tile, to, name));
    PassReport r;
    r.kernel = ks.name;
    r.overlap = lay.overlap();
    r.iters = lay.iters;
    r.blocks = lay.blocks();
    r.threads_per_block = lay.threads_per_block();
    r.time_units = ks.time_units;
    const std::int64_t busiest =
        closed_form::busiest_dmm_slots(static_cast<std::int64_t>(lay.blocks()), lay.threads_per_block(), m.w, m.k);
    const std::int64_t congestion = banks ? 1 : std::int64_t{1} << (t - lay.overlap());
    r.predicted = closed_form::tiled_pass(n, m.w, m.L, m.l, busiest, congestion, lay.iters);
    out.push_back(r);
  }
  return out;
}

BmmcRun run_bmmc(const Machine& machine, const f2::Bmmc& f, const BmmcOptions& o, const EngineOptions& eo) {
  const MachineParams& m = machine.params();
  check_bmmc(m, f, o);
  const std::uint64_t n = std::uint64_t{1} << f.bits();
  Engine engine(machine.view(), eo);
  const ArrayId a = engine.add_array({"a", Space::Global, n});
  const ArrayId b = engine.add_array({"b", Space::Global, n});
  const bool two_passes = passes_of(m, f, o).size() > 1;
  const ArrayId mid = two_passes ? engine.add_array({"mid", Space::Global, n}) : -1;
  const std::uint64_t cells = shared_cells_needed(m, f, o);
  const ArrayId tile = cells > 0 ? engine.add_array({"tile", Space::Shared, cells}) : -1;
  auto src = engine.global(a);
  for (std::uint64_t i = 0; i < n; ++i) src[i] = source_value(i);

  BmmcRun run;
  run.passes = launch_bmmc(engine, m, f, o, a, b, mid, tile);
  run.stats = engine.stats();
  run.trace = engine.trace();
  for (const auto& p : run.passes) run.predicted += p.predicted;
  run.distribution = bmmc_distribution(f, m.w);
  const auto dst = engine.global(b);
  run.correct = true;
  for (std::uint64_t i = 0; i < n && run.correct; ++i)
    if (dst[f.apply(i)] != source_value(i)) run.correct = false;
  return run;
}

TimeUnits simulated_copy_time(const Machine& machine, int bits, Execution execution) {
  const BmmcRun copy = run_bmmc(machine, f2::identity(bits), {KernelKind::Naive, {}}, {execution, false});
  if (!copy.correct) throw std::logic_error("simulated copy: b differs from a");
  return copy.stats.time_units;
}

}  // namespace mmsim::bmmc
