// Figures: each driver writes its CSV, then a gnuplot script, then PNG and SVG from them.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "report/table.h"

namespace mmsim::experiments {

struct FigureSpec {
  std::string name;
  std::string description;
  std::string paper;
  /// Writes the figure's files into `out_dir` (created if needed) and returns the paths of all of
  /// them, data and gnuplot scripts included (`reproduce` lists them in its manifest).
  std::function<std::vector<std::string>(const std::string& out_dir)> make;
};

/// The CPU figures of the registry (results.h), in its order.
const std::vector<FigureSpec>& figures();
const FigureSpec* find_figure(const std::string& name);

/// Writes `script` to DIR/NAME.gp and runs gnuplot on it in DIR, without a shell (so the script
/// names its files relative to DIR, and DIR may hold any character). Throws WriteError, one line,
/// when gnuplot is missing (install the Debian package gnuplot-nox) or fails.
void run_gnuplot(const std::string& dir, const std::string& name, const std::string& script);

/// Writes text to a file, creating its folder; throws WriteError when it cannot.
void write_file(const std::string& path, const std::string& text);

}  // namespace mmsim::experiments
