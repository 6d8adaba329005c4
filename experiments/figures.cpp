#include "experiments/figures.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "algorithms/input_error.h"
#include "experiments/bmmc/bmmc_experiments.h"
#include "experiments/enumeration/enumeration_experiments.h"
#include "experiments/layouts/rap_tables.h"
#include "experiments/sorting/as_bounds.h"

namespace mmsim::experiments {

const std::vector<FigureSpec>& figures() {
  static const std::vector<FigureSpec> all{
      {"rap-congestion", "expected congestion against w for every layout and access (w x w and w^4)", "papers/001 Sect. V, VII", rap_congestion_figure},
      {"enumeration-tlb", "throughput and TLB misses of the transposition block orders against the matrix order", "papers/004 Fig. 2, 9-11", enumeration_tlb_figure},
      {"bmmc-optimisations", "time units of each BPC/BMMC kernel per workload", "papers/002 Fig. 9", bmmc_optimisations_figure},
      {"bmmc-sizes", "speed-up of the optimised BPC/BMMC kernels over the naive one by size", "papers/002 Fig. 11", bmmc_sizes_figure},
      {"as-bounds", "normalised steps of conflict-free sorting, partition, permutation against m", "papers/003 Sect. 2-3", as_bounds_figure},
  };
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
