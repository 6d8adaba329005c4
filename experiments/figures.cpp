#include "experiments/figures.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "algorithms/input_error.h"

namespace mmsim::experiments {

const std::vector<FigureSpec>& figures() {
  static const std::vector<FigureSpec> all{};
  return all;
}

const FigureSpec* find_figure(const std::string& name) {
  for (const auto& f : figures())
    if (f.name == name) return &f;
  return nullptr;
}

void write_file(const std::string& path, const std::string& text) {
  const std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::ofstream out(p);
  if (!out || !(out << text)) throw InputError("cannot write " + path);
}

void run_gnuplot(const std::string& dir, const std::string& name, const std::string& script) {
  write_file(dir + "/" + name + ".gp", script);
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0)
    throw InputError("figure: gnuplot not found (install the Debian package gnuplot-nox)");
  const std::string cmd = "cd '" + dir + "' && gnuplot '" + name + ".gp'";
  if (std::system(cmd.c_str()) != 0) throw InputError("figure: gnuplot failed on " + dir + "/" + name + ".gp");
}

}  // namespace mmsim::experiments
