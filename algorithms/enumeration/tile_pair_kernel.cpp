#include "algorithms/enumeration/tile_pair_kernel.h"

namespace mmsim::enumeration {

// The lower tile (x, y) and the upper tile (y, x) of the block's matrix are both read into shared
// memory, then each is written back, transposed, where the other was. A diagonal tile (x = y) is
// read once and written back transposed.
Kernel tile_pair_kernel(std::string name, std::shared_ptr<const std::vector<Cell2>> tiles, const SquareBatch& batch,
                        std::uint64_t b, ArrayId mat, ArrayId tile, std::uint32_t resident) {
  Kernel k;
  k.name = std::move(name);
  k.blocks = tiles->size() * batch.planes;
  k.threads_per_block = static_cast<std::uint32_t>(b * b);
  k.registers = 2;
  k.resident_blocks_per_dmm = resident;
  const std::uint64_t n = batch.order;
  const std::uint64_t pitch = b + 1;  // padded shared row: a tile column hits w distinct banks
  const std::uint64_t upper_base = b * pitch;
  // Where thread (r, c) of the block stands: its matrix and tile pair, and whether its lower /
  // upper cells exist.
  struct Spot {
    std::uint64_t plane, tx, ty, r, c;
    bool lower, upper;  // lower: cell (row ty b + r, col tx b + c); upper: (row tx b + r, col ty b + c)
  };
  const auto spot = [tiles, n, b](const Thread& t) {
    const Cell2 p = (*tiles)[t.block() % tiles->size()];
    Spot s{t.block() / tiles->size(), p.x, p.y, t.local() / b, t.local() % b, false, false};
    if (p == kIdleTile) return s;
    s.lower = s.ty * b + s.r < n && s.tx * b + s.c < n;
    s.upper = s.tx != s.ty && s.tx * b + s.r < n && s.ty * b + s.c < n;
    return s;
  };
  const auto lower_cell = [batch, b](const Spot& s) { return batch.cell(s.plane, s.ty * b + s.r, s.tx * b + s.c); };
  const auto upper_cell = [batch, b](const Spot& s) { return batch.cell(s.plane, s.tx * b + s.r, s.ty * b + s.c); };
  // A tile pair's cells in the matrix, register 0 the lower tile's, 1 the upper's: read at the start,
  // written back (swapped through the staging tiles) at the end.
  const auto matrix_tile = [=](const char* step, Op op, bool upper) {
    return Access{step, op, mat, upper ? 1 : 0, [=](const Thread& t) {
                    const Spot s = spot(t);
                    if (upper) return s.upper ? upper_cell(s) : kNoAddress;
                    return s.lower ? lower_cell(s) : kNoAddress;
                  }};
  };
  k.steps.push_back(matrix_tile("read lower tile", Op::Read, false));
  k.steps.push_back(matrix_tile("read upper tile", Op::Read, true));
  k.steps.push_back(Access{"stage lower tile", Op::Write, tile, 0, [=](const Thread& t) {
                             const Spot s = spot(t);
                             return s.lower ? s.r * pitch + s.c : kNoAddress;
                           }});
  k.steps.push_back(Access{"stage upper tile", Op::Write, tile, 1, [=](const Thread& t) {
                             const Spot s = spot(t);
                             return s.upper ? upper_base + s.r * pitch + s.c : kNoAddress;
                           }});
  k.steps.push_back(BlockBarrier{});
  // The cell (ty b + r, tx b + c) receives the upper tile's (c, r); a diagonal tile its own (c, r).
  k.steps.push_back(Access{"unstage into lower", Op::Read, tile, 0, [=](const Thread& t) {
                             const Spot s = spot(t);
                             if (!s.lower) return kNoAddress;
                             return (s.tx == s.ty ? 0 : upper_base) + s.c * pitch + s.r;
                           }});
  k.steps.push_back(Access{"unstage into upper", Op::Read, tile, 1, [=](const Thread& t) {
                             const Spot s = spot(t);
                             return s.upper ? s.c * pitch + s.r : kNoAddress;
                           }});
  k.steps.push_back(matrix_tile("write lower tile", Op::Write, false));
  k.steps.push_back(matrix_tile("write upper tile", Op::Write, true));
  return k;
}

}  // namespace mmsim::enumeration
