#include "predict/gpu_facts.h"

#include <cctype>

namespace mmsim::predict {

std::string device_slug(const std::string& gpu_name) {
  std::string slug;
  for (const char c : gpu_name) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u))
      slug += static_cast<char>(std::tolower(u));
    else if (!slug.empty() && slug.back() != '-')
      slug += '-';
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  // The two GPUs mmsim's results come from get their model alone, whatever the board's suffix
  // ("NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe"): one profile per model.
  for (const char* model : {"h100", "h200"}) {
    const std::string m = model;
    const std::size_t at = slug.find(m);
    const bool starts = at == 0 || (at != std::string::npos && slug[at - 1] == '-');
    const bool ends = at != std::string::npos && (at + m.size() == slug.size() || slug[at + m.size()] == '-');
    if (starts && ends) return m;
  }
  return slug.empty() ? "gpu" : slug;
}

}  // namespace mmsim::predict
