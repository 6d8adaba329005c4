// `mmsim layout`: the bank of every cell of one drawn layout of a w x w matrix or a w^4 array (NMI
// Sect. I, IV, VII), as a grid (coloured on a terminal), JSON or SVG. teaching/layout_view.h
// draws it.
#include <unistd.h>

#include <fstream>

#include "cli/common.h"
#include "io/output_file.h"
#include "io/output_path.h"
#include "teaching/layout_view.h"
#include "teaching/posed_access.h"

namespace mmsim::cli {

Runner add_layout_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("layout",
                         "the bank of every cell of a layout (raw, ras, rap, pad, xor, an address expression, a CuTe "
                         "or an F2 layout; w^4: --dims 4) and its row, column and diagonal accesses");
  struct Opts {
    std::string layout;
    int w = 8;
    int dims = 2;
    std::uint64_t seed = 1;
    std::vector<std::uint32_t> slice;
    std::string colour = "auto";
    std::string svg;
    bool json = false;
    std::uint32_t element_bytes = 4, vector = 1;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("--layout", o->layout,
                  "raw, ras, rap, pad, xor, an address expression of the cell (i, j) ('i*(w+1) + j'), a CuTe "
                  "layout ('Swizzle<3,2,3> o (32,32):(32,1)') or an F2 one ('f2:1,2,4,9,18,36') (--dims 2); "
                  "raw, ras, 1p, r1p, 3p, w2p, 1pw2r (--dims 4)")
      ->required();
  add_integer_option(*cmd, o->w, integer_param("w", "-w,--width", "width: banks, and the matrix is w x w", 1, 65536));
  add_integer_option(*cmd, o->dims,
                     integer_param("dims", "--dims",
                                   "2: a w x w matrix; 4: a w^4 array, shown as w^2 slices "
                                   "a[i][j][*][*]",
                                   2, 4));
  ParamSpec seed_spec = seed_param();
  seed_spec.help = "seed of the random numbers (the same draw as mmsim run and mmsim access)";
  add_integer_option(*cmd, o->seed, seed_spec);
  auto* slice = cmd->add_option("--slice", o->slice, "I,J: only the slice a[I][J][*][*] of a w^4 array")
                    ->delimiter(',')
                    ->expected(2);
  cmd->add_option("--color", o->colour, "auto (on a terminal), always or never: ANSI colours per bank")
      ->capture_default_str();
  auto* svg = cmd->add_option("--svg", o->svg, "also write the grid as an SVG picture to this file");
  cmd->add_flag("--json", o->json, "print one JSON object instead of the grid");
  add_integer_option(*cmd, o->element_bytes, teaching::access_element_bytes_param());
  add_integer_option(*cmd, o->vector, teaching::access_vector_param());
  return [o, slice, svg] {
    if (svg->count() > 0) check_output_file("--svg", o->svg);  // before any work
    const teaching::DrawnLayout layout(o->layout, o->dims, o->w, o->seed);
    teaching::SliceChoice choice;
    if (slice->count()) {
      if (o->dims != 4) throw InputError("--slice: only for --dims 4");
      for (auto v : o->slice)
        if (v >= layout.w()) throw InputError("--slice: each of I,J must be below w = " + std::to_string(layout.w()));
      choice.ij = std::make_pair(o->slice[0], o->slice[1]);
    }
    const auto cells = teaching::shown_cells(layout, choice);
    if (cells > teaching::kMaxShownCells)
      throw InputError("-w: " + std::to_string(cells) +
                       " cells are more than the 65536 a picture shows; choose a smaller w" +
                       (o->dims == 4 ? " or one slice (--slice I,J)" : ""));
    bool colour = false;
    if (o->colour == "always")
      colour = true;
    else if (o->colour == "auto")
      colour = isatty(STDOUT_FILENO) != 0;
    else if (o->colour != "never")
      throw InputError("--color: must be auto, always or never (got " + quote(o->colour) + ")");
    if (!o->svg.empty()) write_file_atomically(o->svg, teaching::layout_svg(layout, choice), "--svg");
    if (o->dims == 2) {
      // A matrix's row, column and diagonal accesses, simulated: w^2 threads, at most the 65536 an
      // access may have (teaching::matrix_layout_report, which the Python module calls too).
      if (o->json) {
        print_json(teaching::matrix_layout_report(o->layout, o->w, o->seed, o->element_bytes, o->vector));
      } else {
        // One write: a reader that stops after the first lines (| head) sees the whole text sent at once.
        std::string text = teaching::layout_text(layout, colour, choice);
        if (static_cast<std::uint64_t>(layout.w()) * layout.w() <= teaching::kMaxPosedThreads) {
          const teaching::PosedShape shaped = teaching::pose_shape(o->element_bytes, o->vector, "read");
          text += teaching::layout_accesses_text(teaching::layout_accesses(layout, shaped.shape), layout, shaped.shape);
        }
        std::cout << text;
      }
    } else {
      if (o->element_bytes != 4 || o->vector != 1)
        throw InputError("--element-bytes, --vector: only for the accesses of a w x w matrix");
      if (o->json)
        print_json(teaching::layout_json(layout, choice));
      else
        std::cout << teaching::layout_text(layout, colour, choice);
    }
    return kOk;
  };
}

}  // namespace mmsim::cli
