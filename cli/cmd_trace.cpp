// `mmsim trace FILE`: the pipeline picture of any run's trace (the one schema of docs/report.md),
// as text (the diagram of `mmsim access` when it fits, else a summary per round), JSON, or SVG with
// one lane per pipeline. teaching/trace_view.h draws it. `mmsim trace --kernel FILE` draws the run
// of a kernel file (docs/kernel-files.md) the same way, its trace made in memory.
#include <fstream>
#include <sstream>

#include "algorithms/run_output.h"
#include "cli/common.h"
#include "io/input_file.h"
#include "io/output_file.h"
#include "io/output_path.h"
#include "kernels/kernel_file.h"
#include "teaching/trace_view.h"

namespace mmsim::cli {

Runner add_trace_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("trace", "draw the pipelines of a trace CSV (mmsim run NAME --trace FILE)");
  struct Opts {
    std::string file, kernel;
    std::string svg;
    CLI::Option* svg_option = nullptr;
    int width = 1250;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  auto* file_option = cmd->add_option("file", o->file, "the trace CSV (- for standard input)");
  auto* kernel_option =
      cmd->add_option("--kernel", o->kernel, "instead of a trace CSV: run this kernel file and draw its trace")
          ->type_name("FILE");
  o->svg_option =
      cmd->add_option("--svg", o->svg, "also draw every slot, lane by lane, as an SVG picture in this file");
  add_integer_option(*cmd, o->width, integer_param("width", "--width", "pixels of the SVG's time axis", 200, 20000));
  cmd->add_flag("--json", o->json, "print the summary as one JSON object");
  return [o, file_option, kernel_option] {
    if ((file_option->count() > 0) == (kernel_option->count() > 0))
      throw InputError("trace: give a trace CSV or --kernel FILE, one of them");
    if (o->svg_option->count() > 0) check_output_file("--svg", o->svg);  // before reading the trace
    const std::string& name = o->kernel.empty() ? o->file : o->kernel;
    teaching::TraceFile t;
    if (!o->kernel.empty()) {
      const kernels::ProgramSpec spec = kernels::read_kernel_file("--kernel", o->kernel);
      // The run's trace as `mmsim run NAME --trace` writes it, kept in memory up to what a trace
      // file may hold.
      std::stringstream csv;
      const auto check = [&csv, &name] {
        if (static_cast<std::uint64_t>(csv.tellp()) > teaching::kMaxTraceBytes)
          throw InputError(name + ": the trace of its run is larger than the " +
                           std::to_string(teaching::kMaxTraceBytes >> 20) +
                           " MiB mmsim trace reads; run fewer threads");
      };
      TraceCsvWriter writer(csv, check);
      EngineOptions options;
      options.trace = true;
      options.trace_sink = &writer;
      kernels::run_program(spec, options);
      t = teaching::read_trace(csv, name);
    } else {
      InputFile in("trace", o->file, teaching::kMaxTraceBytes, "that mmsim trace reads", /*stdin_dash=*/true);
      t = teaching::read_trace(in.stream(), o->file);
      in.check_read_whole();  // a pipe past the bound is refused, never drawn as a partial trace
    }
    if (!o->svg.empty()) write_file_atomically(o->svg, teaching::trace_svg(t, name, o->width), "--svg");
    if (o->json)
      print_json(teaching::trace_json(t, name));
    else
      std::cout << teaching::trace_text(t, name);
    return kOk;
  };
}

}  // namespace mmsim::cli
