// `mmsim trace FILE`: the pipeline picture of any run's trace (the one schema of docs/report.md),
// as text (the diagram of `mmsim access` when it fits, else a summary per round), JSON, or SVG with
// one lane per pipeline. teaching/trace_view.h draws it.
#include <fstream>

#include "cli/common.h"
#include "io/input_file.h"
#include "io/output_file.h"
#include "io/output_path.h"
#include "teaching/trace_view.h"

namespace mmsim::cli {

Runner add_trace_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("trace", "draw the pipelines of a trace CSV (mmsim run NAME --trace FILE)");
  struct Opts {
    std::string file;
    std::string svg;
    CLI::Option* svg_option = nullptr;
    int width = 1250;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("file", o->file, "the trace CSV (- for standard input)")->required();
  o->svg_option =
      cmd->add_option("--svg", o->svg, "also draw every slot, lane by lane, as an SVG picture in this file");
  add_integer_option(*cmd, o->width, integer_param("width", "--width", "pixels of the SVG's time axis", 200, 20000));
  cmd->add_flag("--json", o->json, "print the summary as one JSON object");
  return [o] {
    if (o->svg_option->count() > 0) check_output_file("--svg", o->svg);  // before reading the trace
    InputFile in("trace", o->file, teaching::kMaxTraceBytes, "that mmsim trace reads", /*stdin_dash=*/true);
    const teaching::TraceFile t = teaching::read_trace(in.stream(), o->file);
    in.check_read_whole();  // a pipe past the bound is refused, never drawn as a partial trace
    if (!o->svg.empty()) write_file_atomically(o->svg, teaching::trace_svg(t, o->file, o->width), "--svg");
    if (o->json)
      print_json(teaching::trace_json(t, o->file));
    else
      std::cout << teaching::trace_text(t, o->file);
    return kOk;
  };
}

}  // namespace mmsim::cli
