// Figures: each driver writes its CSV, then the values its kept gnuplot script (experiments/figures/
// NAME.gp) reads, then PNG and SVG through gnuplot.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
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

/// The values a kept gnuplot script (experiments/figures/*.gp) reads, written as gnuplot commands
/// before it: a text as a double-quoted string that gnuplot reads back exactly (a line break
/// written as \n), a number as its literal (gnuplot reads "3e-06" as a number only when it is not
/// inside a string), a list as an array (gnuplot has no empty array: an empty list is one empty
/// text, or NaN), lines of data as a datablock.
class GnuplotVariables {
 public:
  GnuplotVariables& text(const std::string& name, const std::string& value);
  /// `literal` is written as it is ("4.45545e-08", "1200"): the number gnuplot reads is exactly it.
  GnuplotVariables& number(const std::string& name, const std::string& literal);
  GnuplotVariables& number(const std::string& name, long long value);
  GnuplotVariables& texts(const std::string& name, const std::vector<std::string>& values);
  /// An array of numbers, each a literal as number() takes it ("NaN" for none).
  GnuplotVariables& numbers(const std::string& name, const std::vector<std::string>& literals);
  /// $NAME << EOD, the lines, EOD; each line of `lines` ends in "\n".
  GnuplotVariables& data(const std::string& name, const std::string& lines);
  /// The images of a figure drawn by run_gnuplot: `name` holds their path without the extension,
  /// relative to the figure's folder, and the script draws one image BASE.EXT per extension
  /// (set output name.'.png'). run_gnuplot has gnuplot draw them under hidden names and renames
  /// each when gnuplot has finished, so that a failed figure leaves no half-drawn image.
  GnuplotVariables& images(const std::string& name, const std::string& base,
                           const std::vector<std::string>& extensions);
  GnuplotVariables& append(const GnuplotVariables& more);

  /// The commands as a reader reruns them, with the images' real names.
  const std::string& str() const { return text_; }
  /// The same with the images' hidden names; and each hidden file with its real name.
  const std::string& drawing_str() const { return drawing_; }
  const std::vector<std::pair<std::string, std::string>>& hidden_images() const { return hidden_; }

 private:
  GnuplotVariables& line(const std::string& text);
  std::string text_, drawing_;
  std::vector<std::pair<std::string, std::string>> hidden_;
};

/// The gnuplot script kept as experiments/figures/NAME.gp, as built into the library (CMake turns
/// each into a string, so that an installed mmsim draws without its sources). Throws
/// std::logic_error for a name that has no script.
std::string_view kept_gnuplot_script(std::string_view name);

/// Writes DIR/FILE.gp, the variables and then the kept script SCRIPT (what a reader reruns, with the
/// real names), and runs gnuplot on it in DIR, without a shell (so the script names its files
/// relative to DIR, and DIR may hold any character). Throws WriteError, one line, when gnuplot is
/// missing (install the Debian package gnuplot-nox) or fails.
void run_gnuplot(const std::string& dir, const std::string& file, const GnuplotVariables& variables,
                 const std::string& script);

/// The figure NAME as NAME-png.gp and NAME-svg.gp, each drawing its one image (term and output set
/// for it) from the figure's own variables and the kept script SCRIPT.
void run_gnuplot_png_svg(const std::string& dir, const std::string& name, const GnuplotVariables& figure,
                         const std::string& script);

/// Writes text to a file, creating its folder; throws WriteError when it cannot.
void write_file(const std::string& path, const std::string& text);

}  // namespace mmsim::experiments
