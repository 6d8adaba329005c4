#include "algorithms/enumeration/transpose.h"

#include <algorithm>
#include <memory>
#include <numeric>

#include "algorithms/enumeration/tile_pair_kernel.h"
#include "io/input_error.h"

namespace mmsim::enumeration {

namespace {

using Tiles = std::shared_ptr<const std::vector<Cell2>>;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// The out-of-place kernel of Listing 1: input tile (tx, ty) of a rows x cols matrix at cell 0,
// output tile (ty, tx) of the cols x rows transpose at cell `out`, through a padded shared tile.
Kernel out_of_place_kernel(std::string name, Tiles tiles, std::uint64_t rows, std::uint64_t cols, std::uint64_t out,
                           std::uint64_t b, ArrayId mem, ArrayId tile, std::uint32_t resident) {
  Kernel k;
  k.name = std::move(name);
  k.blocks = tiles->size();
  k.threads_per_block = static_cast<std::uint32_t>(b * b);
  k.registers = 1;
  k.resident_blocks_per_dmm = resident;
  const std::uint64_t pitch = b + 1;
  struct Spot {
    std::uint64_t tx, ty, r, c;
  };
  const auto spot = [tiles, b](const Thread& t) {
    const Cell2 p = (*tiles)[t.block()];
    return Spot{p.x, p.y, t.local() / b, t.local() % b};
  };
  // Input cell (row ty b + r, col tx b + c); output cell (row tx b + r, col ty b + c).
  const auto in_ok = [=](const Spot& s) { return s.ty * b + s.r < rows && s.tx * b + s.c < cols; };
  const auto out_ok = [=](const Spot& s) { return s.tx * b + s.r < cols && s.ty * b + s.c < rows; };
  k.steps.push_back(Access{"read tile", Op::Read, mem, 0, [=](const Thread& t) {
                             const Spot s = spot(t);
                             return in_ok(s) ? (s.ty * b + s.r) * cols + s.tx * b + s.c : kNoAddress;
                           }});
  k.steps.push_back(Access{"stage tile", Op::Write, tile, 0, [=](const Thread& t) {
                             const Spot s = spot(t);
                             return in_ok(s) ? s.r * pitch + s.c : kNoAddress;
                           }});
  k.steps.push_back(BlockBarrier{});
  k.steps.push_back(Access{"unstage column", Op::Read, tile, 0, [=](const Thread& t) {
                             const Spot s = spot(t);
                             return out_ok(s) ? s.c * pitch + s.r : kNoAddress;
                           }});
  k.steps.push_back(Access{"write tile", Op::Write, mem, 0, [=](const Thread& t) {
                             const Spot s = spot(t);
                             return out_ok(s) ? out + (s.tx * b + s.r) * rows + s.ty * b + s.c : kNoAddress;
                           }});
  return k;
}

std::uint64_t global_slots(const RunStats& s) {
  std::uint64_t g = 0;
  for (const auto& r : s.rounds)
    if (r.memory == Space::Global) g += r.slots;
  return g;
}

}  // namespace

void check_tile_machine(const MachineParams& m) {
  if (auto err = m.validate()) throw InputError(*err);
  if (m.model != ModelKind::Hmm) throw InputError("model: the transpositions run on the HMM");
  if (m.w > kMaxTileWidth)
    throw InputError("w: at most " + std::to_string(kMaxTileWidth) + " (tiles are w x w, one thread per cell)");
}

// The engine's statistics and trace, and the TLB's counters, into a finished run.
void collect_run(const Engine& engine, const TlbMachine& machine, TransposeRun& run) {
  run.stats = engine.stats();
  run.trace = engine.trace();
  run.tlb = machine.tlb_stats();
  run.global_slots = global_slots(run.stats);
}

std::vector<Cell2> triangular_grid(Scheme s, std::uint64_t nb, std::uint64_t band) {
  const std::uint64_t m = nb + 1;  // the tiles on and below the diagonal, as entries below it in order nb + 1
  const std::uint64_t w = std::min(band, nb);
  if (s == Scheme::V1B) check_v1b(m, w);
  std::vector<Cell2> out(tri_plus(nb));
  for (std::uint64_t k = 0; k < out.size(); ++k) {
    const Cell2 c = decode(s, m, w, k);
    out[k] = {c.x, c.y - 1};
  }
  return out;
}

std::vector<Cell2> rectangular_grid(bool banded, std::uint64_t cb, std::uint64_t rb, std::uint64_t band) {
  std::vector<Cell2> out(cb * rb);
  const std::uint64_t w = std::min(band, cb);
  if (banded) check_v1bf(cb, rb, w);
  for (std::uint64_t k = 0; k < out.size(); ++k)
    out[k] = banded ? v1bf_decode(cb, rb, w, k) : Cell2{k % cb, k / cb};  // NVIDIA: blockIdx.x fastest
  return out;
}

void check_in_place(const MachineParams& m, const InPlaceConfig& c) {
  check_tile_machine(m);
  if (c.order < 1 || c.order > kMaxInPlaceOrder)
    throw InputError("order: must be between 1 and " + std::to_string(kMaxInPlaceOrder) + " (got " +
                     std::to_string(c.order) + ")");
  if (c.grid == InPlaceGrid::Scheme && c.scheme == Scheme::V1B && c.band < 1) throw InputError("band: must be >= 1");
  if (c.grid == InPlaceGrid::SuperGrid && (c.region < 1 || c.region > 1024))
    throw InputError("region: must be between 1 and 1024 tiles");
}

void check_out_of_place(const MachineParams& m, const OutOfPlaceConfig& c) {
  check_tile_machine(m);
  if (c.rows < 1 || c.cols < 1) throw InputError("rows: the matrix needs at least one row and one column");
  if (c.rows > kMaxOutOfPlaceCells / c.cols)
    throw InputError("rows: rows x cols must be at most 2^24 cells on the simulator");
  if (c.banded && c.band < 1) throw InputError("band: must be >= 1");
}

bool holds_transpose(std::span<const Word> cells, std::uint64_t n) {
  for (std::uint64_t y = 0; y < n; ++y)
    for (std::uint64_t x = 0; x < n; ++x)
      if (cells[y * n + x] != cell_value(x * n + y)) return false;
  return true;
}

TransposeRun run_in_place(const TlbMachine& machine, const InPlaceConfig& c, const EngineOptions& eo) {
  check_in_place(machine.params(), c);
  const std::uint64_t n = c.order;
  const auto b = static_cast<std::uint64_t>(machine.params().w);
  const std::uint64_t nb = ceil_div(n, b);
  machine.reset_tlb();
  Engine engine(machine.view(), eo);
  const ArrayId mat = engine.add_array({"matrix", Space::Global, n * n});
  const ArrayId tile = engine.add_array({"tiles", Space::Shared, 2 * b * (b + 1)});
  auto cells = engine.global(mat);
  for (std::uint64_t i = 0; i < cells.size(); ++i) cells[i] = cell_value(i);

  TransposeRun run;
  std::vector<std::pair<std::string, std::vector<Cell2>>> grids;
  switch (c.grid) {
    case InPlaceGrid::Naive: {
      std::vector<Cell2> g(nb * nb);
      for (std::uint64_t k = 0; k < g.size(); ++k) {
        const std::uint64_t x = k % nb, y = k / nb;  // blockIdx.x fastest
        g[k] = x <= y ? Cell2{x, y} : kIdleTile;
      }
      grids.emplace_back("transpose-ip-naive", std::move(g));
      break;
    }
    case InPlaceGrid::SuperGrid: {
      // Listing 3: the host walks the regions on and below the diagonal, one launch each.
      const std::uint64_t r = c.region, nr = ceil_div(nb, r);
      for (std::uint64_t ry = 0; ry < nr; ++ry)
        for (std::uint64_t rx = 0; rx <= ry; ++rx) {
          std::vector<Cell2> g(r * r);
          for (std::uint64_t k = 0; k < g.size(); ++k) {
            const std::uint64_t x = rx * r + k % r, y = ry * r + k / r;
            g[k] = x < nb && y < nb && x <= y ? Cell2{x, y} : kIdleTile;  // Listing 4's test
          }
          grids.emplace_back("transpose-ip-supergrid(" + std::to_string(rx) + "," + std::to_string(ry) + ")",
                             std::move(g));
        }
      break;
    }
    case InPlaceGrid::Scheme:
      grids.emplace_back(std::string("transpose-ip-") + to_string(c.scheme), triangular_grid(c.scheme, nb, c.band));
      if (c.scheme == Scheme::V1B) run.band_used = std::min(c.band, nb);
      break;
  }
  for (auto& [name, g] : grids) {
    run.blocks += g.size();
    run.idle_blocks += static_cast<std::uint64_t>(std::count(g.begin(), g.end(), kIdleTile));
    auto tiles = std::make_shared<const std::vector<Cell2>>(std::move(g));
    engine.launch(tile_pair_kernel(name, tiles, SquareBatch{.order = n, .pitch = n}, b, mat, tile, c.resident));
    ++run.launches;
  }
  run.correct = holds_transpose(cells, n);
  collect_run(engine, machine, run);
  return run;
}

TransposeRun run_out_of_place(const TlbMachine& machine, const OutOfPlaceConfig& c, const EngineOptions& eo) {
  check_out_of_place(machine.params(), c);
  const auto b = static_cast<std::uint64_t>(machine.params().w);
  const std::uint64_t cb = ceil_div(c.cols, b), rb = ceil_div(c.rows, b);
  const std::uint64_t cells_in = c.rows * c.cols;
  // Input and output share one allocation (the TLB sees engine addresses, so two arrays would
  // alias each other's pages); the output starts on a page and address-group boundary.
  const std::uint64_t align = machine.tlb_params().enabled() ? std::lcm(b, machine.tlb_params().page_cells) : b;
  const std::uint64_t out = ceil_div(cells_in, align) * align;
  machine.reset_tlb();
  Engine engine(machine.view(), eo);
  const ArrayId mem = engine.add_array({"in+out", Space::Global, out + cells_in});
  const ArrayId tile = engine.add_array({"tile", Space::Shared, b * (b + 1)});
  auto cells = engine.global(mem);
  for (std::uint64_t i = 0; i < cells_in; ++i) cells[i] = cell_value(i);

  TransposeRun run;
  auto tiles = std::make_shared<const std::vector<Cell2>>(rectangular_grid(c.banded, cb, rb, c.band));
  if (c.banded) run.band_used = std::min(c.band, cb);
  run.blocks = tiles->size();
  run.launches = 1;
  engine.launch(out_of_place_kernel(c.banded ? "transpose-oop-v1bf" : "transpose-oop-nvidia", tiles, c.rows, c.cols,
                                    out, b, mem, tile, c.resident));
  run.correct = true;
  // Output (i, j), i < cols, j < rows, holds input (j, i).
  for (std::uint64_t i = 0; i < c.cols && run.correct; ++i)
    for (std::uint64_t j = 0; j < c.rows; ++j)
      if (cells[out + i * c.rows + j] != cell_value(j * c.cols + i)) {
        run.correct = false;
        break;
      }
  collect_run(engine, machine, run);
  return run;
}

}  // namespace mmsim::enumeration
