#include "algorithms/enumeration/involutions.h"

#include <algorithm>
#include <memory>

#include "algorithms/enumeration/involution_core.h"
#include "algorithms/enumeration/pairing_core.h"
#include "algorithms/enumeration/tile_pair_kernel.h"
#include "io/input_error.h"

namespace mmsim::enumeration {

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// TW: thread k < N(N - 1)/2 swaps the cells of entry V1(k) = (x, y), x < y, through two registers.
// Threads past the triangle (the last block's tail) present no address.
Kernel thread_wise_kernel(std::uint64_t n, std::uint64_t block_threads, ArrayId mat, std::uint32_t resident) {
  Kernel k;
  k.name = "transpose-ip-tw";
  const std::uint64_t pairs = tri_minus(n);
  k.blocks = ceil_div(pairs, block_threads);
  k.threads_per_block = static_cast<std::uint32_t>(block_threads);
  k.registers = 2;
  k.resident_blocks_per_dmm = resident;
  const auto lower = [n, pairs](const Thread& t) -> Address {
    if (t.id() >= pairs) return kNoAddress;
    const core::XY e = core::v1_decode(t.id());
    return e.y * n + e.x;
  };
  const auto upper = [n, pairs](const Thread& t) -> Address {
    if (t.id() >= pairs) return kNoAddress;
    const core::XY e = core::v1_decode(t.id());
    return e.x * n + e.y;
  };
  k.steps.push_back(Access{"read lower cell", Op::Read, mat, 0, lower});
  k.steps.push_back(Access{"read upper cell", Op::Read, mat, 1, upper});
  k.steps.push_back(Access{"write lower cell", Op::Write, mat, 1, lower});
  k.steps.push_back(Access{"write upper cell", Op::Write, mat, 0, upper});
  return k;
}

// The batch of N x N matrices the involution transposes (involutions.h).
SquareBatch batch_of(const Involution3DConfig& c) {
  const core::Batch3 second = c.which == Involution::Yxz ? core::batch3<core::Inv3::Yxz>(c.order, c.depth, 1)
                                                         : core::batch3<core::Inv3::Zyx>(c.order, c.depth, 1);
  return {.order = c.order, .planes = c.depth, .plane_stride = second.base, .pitch = second.pitch};
}

}  // namespace

const char* to_string(Involution i) { return i == Involution::Yxz ? "yxz" : "zyx"; }

std::uint64_t involution_image(Involution which, std::uint64_t order, std::uint64_t depth, std::uint64_t i) {
  return which == Involution::Yxz ? core::involution_image<core::Inv3::Yxz>(order, depth, i)
                                  : core::involution_image<core::Inv3::Zyx>(order, depth, i);
}

void check_thread_wise(const MachineParams& m, const ThreadWiseConfig& c) {
  check_tile_machine(m);
  if (c.order < 1 || c.order > kMaxInPlaceOrder)
    throw InputError("order: must be between 1 and " + std::to_string(kMaxInPlaceOrder) + " (got " +
                     std::to_string(c.order) + ")");
}

void check_involution(const MachineParams& m, const Involution3DConfig& c) {
  check_tile_machine(m);
  if (c.order < 1 || c.depth < 1 || c.order > kMaxInvolutionCells / c.order ||
      c.order * c.order > kMaxInvolutionCells / c.depth)
    throw InputError("order, depth: the matrix must have between 1 and 2^24 cells (got " + std::to_string(c.order) +
                     " x " + std::to_string(c.order) + " x " + std::to_string(c.depth) + ")");
  if (c.banded && c.band < 1) throw InputError("band: must be >= 1");
}

TransposeRun run_thread_wise(const TlbMachine& machine, const ThreadWiseConfig& c, const EngineOptions& eo) {
  check_thread_wise(machine.params(), c);
  const std::uint64_t n = c.order;
  const auto w = static_cast<std::uint64_t>(machine.params().w);
  machine.reset_tlb();
  Engine engine(machine.view(), eo);
  const ArrayId mat = engine.add_array({"matrix", Space::Global, n * n});
  auto cells = engine.global(mat);
  for (std::uint64_t i = 0; i < cells.size(); ++i) cells[i] = cell_value(i);
  TransposeRun run;
  // Blocks of w^2 threads, as the tile kernels' (the last one partly idle).
  Kernel k = thread_wise_kernel(n, w * w, mat, c.resident);
  run.blocks = k.blocks;
  if (k.blocks > 0) {  // an order-1 matrix has nothing to swap
    engine.launch(std::move(k));
    run.launches = 1;
  }
  run.correct = holds_transpose(cells, n);
  collect_run(engine, machine, run);
  return run;
}

TransposeRun run_involution(const TlbMachine& machine, const Involution3DConfig& c, const EngineOptions& eo,
                            int times) {
  check_involution(machine.params(), c);
  const SquareBatch batch = batch_of(c);
  const std::uint64_t n = c.order, cells_total = n * n * c.depth;
  const auto b = static_cast<std::uint64_t>(machine.params().w);
  const std::uint64_t nb = ceil_div(n, b);
  machine.reset_tlb();
  Engine engine(machine.view(), eo);
  const ArrayId mat = engine.add_array({"matrix", Space::Global, cells_total});
  const ArrayId tile = engine.add_array({"tiles", Space::Shared, 2 * b * (b + 1)});
  auto cells = engine.global(mat);
  for (std::uint64_t i = 0; i < cells.size(); ++i) cells[i] = cell_value(i);

  TransposeRun run;
  std::vector<Cell2> g;
  if (c.banded) {
    g = triangular_grid(Scheme::V1B, nb, c.band);
    run.band_used = std::min(c.band, nb);
  } else {
    g.resize(nb * nb);
    for (std::uint64_t k = 0; k < g.size(); ++k) {
      const std::uint64_t x = k % nb, y = k / nb;  // blockIdx.x fastest; Listing 6 idles x > y
      g[k] = x <= y ? Cell2{x, y} : kIdleTile;
    }
  }
  const std::uint64_t idle = static_cast<std::uint64_t>(std::count(g.begin(), g.end(), kIdleTile));
  const auto tiles = std::make_shared<const std::vector<Cell2>>(std::move(g));
  const std::string name = std::string("transpose3d-") + to_string(c.which) + (c.banded ? "-v1b" : "-naive");
  for (int i = 0; i < times; ++i) {
    engine.launch(tile_pair_kernel(name, tiles, batch, b, mat, tile, c.resident));
    run.blocks += tiles->size() * c.depth;
    run.idle_blocks += idle * c.depth;
    ++run.launches;
  }
  // After an odd number of runs cell image(i) holds what cell i held; after an even one, cell i.
  run.correct = true;
  for (std::uint64_t i = 0; i < cells_total; ++i) {
    const std::uint64_t at = times % 2 == 1 ? involution_image(c.which, n, c.depth, i) : i;
    if (cells[at] != cell_value(i)) {
      run.correct = false;
      break;
    }
  }
  collect_run(engine, machine, run);
  return run;
}

}  // namespace mmsim::enumeration
