#include "algorithms/layouts/catalogue.h"

#include "algorithms/layouts/patterns.h"
#include "algorithms/layouts/transposes.h"
#include "models/layouts/array4_layout.h"

namespace mmsim {

void append_layout_catalogue(std::vector<CatalogueEntry>& out) {
  const std::string p001 = "papers/001";
  out.push_back({"algorithm", "crsw", "transpose of a w x w matrix, contiguous read and stride write (--layout L)",
                 p001 + " Sect. III, VI"});
  out.push_back({"algorithm", "srcw", "transpose of a w x w matrix, stride read and contiguous write (--layout L)",
                 p001 + " Sect. III, VI"});
  out.push_back({"algorithm", "drdw", "transpose of a w x w matrix, diagonal read and diagonal write (--layout L)",
                 p001 + " Sect. III, VI"});

  out.push_back({"layout", "raw", "w x w matrix: (i, j) at i w + j", p001 + " Sect. I"});
  out.push_back({"layout", "ras", "w x w matrix: (i, j) at i w + (j + r_i) mod w, r_i independent uniform (--seed)",
                 p001 + " Sect. I"});
  out.push_back({"layout", "rap", "w x w matrix: (i, j) at i w + (j + r_i) mod w, r a random permutation (--seed)",
                 p001 + " Sect. IV"});
  out.push_back({"layout", "pad", "w x w matrix: (i, j) at i (w + 1) + j (row pitch w + 1)", "beyond the papers"});
  out.push_back({"layout", "xor",
                 "w x w matrix: (i, j) at i w + (j XOR (i mod w)); for w not a power of two, column j swaps with "
                 "j XOR (i mod w) only when both are below w",
                 "beyond the papers (CUTLASS/CuTe swizzle)"});
  const std::vector<std::pair<const char*, const char*>> four{
      {"raw", "f = 0"},
      {"ras", "f = independent uniform per (i, j, k)"},
      {"1p", "f = r_k"},
      {"r1p", "f = r_i + r_j + r_k"},
      {"3p", "f = r_i + s_j + t_k, three permutations"},
      {"w2p", "f = r^(i w + j)_k, w^2 permutations"},
      {"1pw2r", "f = s_(i w + j) + r_k, w^2 uniform numbers and one permutation"},
  };
  for (const auto& [name, f] : four)
    out.push_back({"layout", std::string(name) + " (--dims 4)",
                   std::string("w^4 array: a[i][j][k][l] in bank (l + f(i, j, k)) mod w, ") + f, p001 + " Sect. VII"});

  out.push_back({"pattern", "contiguous", "one warp reads a row (i, 0 .. w-1), i random", p001 + " Sect. III"});
  out.push_back({"pattern", "stride", "one warp reads a column (0 .. w-1, j), j random", p001 + " Sect. III"});
  out.push_back({"pattern", "diagonal", "thread t reads (t, (d + t) mod w), d random", p001 + " Sect. III"});
  out.push_back({"pattern", "random", "each thread an independent uniform cell; equal addresses merge", p001 + " Sect. V"});
  out.push_back({"pattern", "contiguous / stride1 / stride2 / stride3 (--dims 4)",
                 "a[i][j][k][0:w-1] / a[i][j][0:w-1][l] / a[i][0:w-1][k][l] / a[0:w-1][j][k][l], free indices random",
                 p001 + " Sect. VII"});
  out.push_back({"pattern", "random (--dims 4)", "w independent uniform cells of the w^4 array; equal ones merge",
                 p001 + " Sect. VII"});
  for (auto k : layouts::array4_layout_kinds())
    out.push_back({"pattern", std::string("malicious (--dims 4, ") + layouts::to_string(k) + ")",
                   layouts::malicious_meaning(k), p001 + " Sect. VII"});
}

}  // namespace mmsim
