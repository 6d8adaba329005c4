// One drawn layout, cell by cell: the bank of every cell of a w x w matrix (NMI Sect. I, IV; pad and
// xor beyond the papers) or of a w^4 array (NMI Sect. VII), as a terminal grid, JSON or SVG, and the
// address of any cell for `mmsim access --layout L --cell ...`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/layouts/array4_layout.h"
#include "models/layouts/matrix_layout.h"
#include "models/real_accesses.h"
#include "report/json.h"
#include "teaching/posed_access.h"
#include "teaching/tile_layout.h"

namespace mmsim::teaching {

/// A layout with its random numbers drawn from `seed`: for a w x w matrix the same draw as
/// `mmsim run crsw|srcw|drdw --layout L --seed S` makes (one Draws(seed), MatrixLayout(kind, w)),
/// so a picture and a run agree; for a w^4 array f(i, j, k) drawn in the order (i, j, k) = (0, 0, 0),
/// (0, 0, 1), ...
class DrawnLayout {
 public:
  /// Throws InputError naming --layout, --dims or -w. w^4 arrays: 2 <= w <= kMaxWidth4. A w x w
  /// matrix takes any layout parse_layout reads (teaching/tile_layout.h): a name, an address
  /// expression, a CuTe layout or an F2 one.
  DrawnLayout(std::string_view name, int dims, int w, std::uint64_t seed);

  static constexpr int kMaxWidth2 = 65536;
  static constexpr int kMaxWidth4 = 64;

  const std::string& name() const { return name_; }
  int dims() const { return dims_; }
  std::uint32_t w() const { return w_; }
  std::uint64_t seed() const { return seed_; }
  /// Whether the layout draws random numbers (ras, rap and the w^4 schemes other than raw).
  bool random() const;

  /// Address of a cell: `cell` holds dims() coordinates, each below w.
  Address address(const std::uint32_t* cell) const;
  std::uint32_t bank(const std::uint32_t* cell) const { return static_cast<std::uint32_t>(address(cell) % w_); }

  /// "rap (w = 4, seed 1: r = 2 0 3 1)": one line with the random numbers that fit in it.
  std::string describe() const;
  /// The matrix's layout (dims() == 2).
  const MatrixTile& tile() const { return *matrix_; }

 private:
  std::string name_;
  int dims_ = 2;
  std::uint32_t w_ = 0;
  std::uint64_t seed_ = 0;
  std::optional<MatrixTile> matrix_;
  layouts::Array4LayoutKind kind4_ = layouts::Array4LayoutKind::Raw;
  std::vector<std::uint32_t> shift4_;  // f(i, j, k) mod w at (i w + j) w + k
};

/// Which part of a w^4 array to show: the w x w slice a[i][j][*][*], or every slice.
struct SliceChoice {
  std::optional<std::pair<std::uint32_t, std::uint32_t>> ij;
};

/// The banks as a grid (rows i, columns j; for w^4 arrays one grid per slice a[i][j][k][l], rows k,
/// columns l). `colour` paints each bank its own ANSI 256-colour background.
std::string layout_text(const DrawnLayout& l, bool colour, const SliceChoice& slice = {});
/// {layout, dims, w, seed, random_numbers, banks} with banks[i][j] (or banks[i][j][k][l]).
report::Json layout_json(const DrawnLayout& l, const SliceChoice& slice = {});
/// A coloured grid, one square per cell with its bank written in it when it fits.
std::string layout_svg(const DrawnLayout& l, const SliceChoice& slice = {});

/// One warp access of a w x w matrix under a layout, simulated: the row, column and diagonal
/// accesses of NMI Sect. III, each run as one instruction of w warps (warp k the row, column or
/// diagonal k), on a DMM of width w, latency 1.
struct LayoutAccess {
  std::string name;         ///< "row", "column", "diagonal"
  std::string cells;        ///< thread t's cell, as --cell would pose it: "k, t"
  int congestion = 0;       ///< the worst warp's congestion
  int wavefronts = 0;       ///< the worst warp's slots (one slot a wavefront of the GPU's shared memory)
  std::uint64_t slots = 0;  ///< the w warps' slots together
  /// An F2 layout's congestion read off its matrix's rank (4-byte elements, one a thread): row and
  /// column only (a diagonal is not a subspace).
  std::optional<std::uint64_t> closed_form;
};
/// With `shape`'s element bytes and vector: thread t of a row moves the vector at (k, v t) (w / v
/// threads), of a column the one at (t, v k), of a diagonal the one at (t, v ((k + t) mod w / v)).
/// Throws InputError naming --vector when a vector is not aligned under the layout.
std::vector<LayoutAccess> layout_accesses(const DrawnLayout& l, const AccessShape& shape);
/// Lines under the grid: one per access, with the closed form beside an F2 layout's figure.
std::string layout_accesses_text(const std::vector<LayoutAccess>& a, const DrawnLayout& l, const AccessShape& shape);
report::Json layout_accesses_json(const std::vector<LayoutAccess>& a);

/// What `mmsim layout --json` prints for a layout of a w x w matrix, in one call for every caller
/// (the CLI, the Python module, the page): layout_json's keys, "language" and "accesses"
/// (layout_accesses with `element_bytes` and `vector`, checked by the rules of --element-bytes and
/// --vector; left out beyond 65536 cells). Throws InputError with the CLI's one line.
report::Json matrix_layout_report(std::string_view text, int w, std::uint64_t seed, std::int64_t element_bytes = 4,
                                  std::int64_t vector = 1);

/// The tile view: the matrix with its padding (the unused addresses of each row's stretch, when the
/// layout has a pitch), every cell labelled and coloured by its bank, and the cells `outlined`
/// (one warp's access: (i, j) per thread, an empty entry an inactive thread) marked.
std::string tile_text(const DrawnLayout& l, const std::vector<std::vector<std::int64_t>>& outlined, bool colour,
                      const std::string& caption);
std::string tile_svg(const DrawnLayout& l, const std::vector<std::vector<std::int64_t>>& outlined,
                     const std::string& caption);

/// The tile view of an access posed through a layout of a w x w matrix, in one place for `mmsim
/// access --layout L --cell E` and the explorer: the layout drawn as the access drew it (`seed`),
/// the cells of warp `warp` (threads w warp .. w warp + w - 1) to outline, and the caption. nullopt
/// when the access's cells are not a matrix's (four coordinates). Throws InputError naming
/// --tile-warp when the access has no such warp.
struct AccessTile {
  DrawnLayout layout;
  std::vector<std::vector<std::int64_t>> outlined;
  std::string caption;
};
std::optional<AccessTile> access_tile(const PosedAccess& posed, std::string_view layout, int w, std::uint64_t seed,
                                      std::uint64_t warp);

/// Cells the views above would show; the CLI refuses beyond kMaxShownCells.
std::uint64_t shown_cells(const DrawnLayout& l, const SliceChoice& slice);
inline constexpr std::uint64_t kMaxShownCells = 1u << 16;

}  // namespace mmsim::teaching
