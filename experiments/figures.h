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
  GnuplotVariables& append(const GnuplotVariables& more);
  const std::string& str() const { return text_; }

 private:
  std::string text_;
};

/// Writes `script` to DIR/NAME.gp and runs gnuplot on it in DIR, without a shell (so the script
/// names its files relative to DIR, and DIR may hold any character). Throws WriteError, one line,
/// when gnuplot is missing (install the Debian package gnuplot-nox) or fails.
void run_gnuplot(const std::string& dir, const std::string& name, const std::string& script);

/// Writes text to a file, creating its folder; throws WriteError when it cannot.
void write_file(const std::string& path, const std::string& text);

}  // namespace mmsim::experiments
