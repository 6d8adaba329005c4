#include "algorithms/sorting/matrix_dmm.h"

#include <algorithm>

namespace mmsim::sorting {

namespace {
MachineParams dmm_params(int w) {
  MachineParams p;
  p.model = ModelKind::Dmm;
  p.w = w;
  p.l = 1;  // papers/003 Sect. 1: every access takes one time unit
  return p;
}
}  // namespace

MatrixDmm::MatrixDmm(int w, std::uint64_t columns)
    : w_(w), columns_(columns), machine_(std::make_unique<Machine>(dmm_params(w))),
      engine_(std::make_unique<Engine>(machine_->view())), addr_(static_cast<std::size_t>(w), kNoAddress),
      val_(static_cast<std::size_t>(w), 0) {
  array_ = engine_->add_array({"matrix", Space::Shared, columns * static_cast<std::uint64_t>(w)});
  (void)engine_->shared(array_, 0);
  // Two kernels of one warp, reused for every step: the host fills addr_/val_ before each launch.
  const auto address = [this](const Thread& t) -> Address { return addr_[t.local()]; };
  read_ = Kernel{"start", 1, static_cast<std::uint32_t>(w), 1,
                 {Access{"read", Op::Read, array_, 0, address},
                  Compute{[this](const Thread& t) { val_[t.local()] = t.reg(0); }}}};
  write_ = Kernel{"start", 1, static_cast<std::uint32_t>(w), 1,
                  {Compute{[this](const Thread& t) { t.set(0, val_[t.local()]); }},
                   Access{"write", Op::Write, array_, 0, address}}};
}

void MatrixDmm::phase(const std::string& name) {
  read_.name = name;
  write_.name = name;
}

void MatrixDmm::read(const std::vector<Address>& addr, std::vector<Word>& val) {
  if (std::all_of(addr.begin(), addr.end(), [](Address a) { return a == kNoAddress; })) return;
  addr_ = addr;
  engine_->launch(read_);
  for (std::size_t p = 0; p < addr.size(); ++p)
    if (addr[p] != kNoAddress) val[p] = val_[p];
}

void MatrixDmm::write(const std::vector<Address>& addr, const std::vector<Word>& val) {
  if (std::all_of(addr.begin(), addr.end(), [](Address a) { return a == kNoAddress; })) return;
  addr_ = addr;
  val_ = val;
  engine_->launch(write_);
}

StepSummary summarize(const RunStats& stats) {
  StepSummary s;
  for (const auto& r : stats.rounds) {
    if (r.warps == 0) continue;
    ++s.steps;
    s.time_units += r.time_units.value_or(0);
    s.max_congestion = std::max(s.max_congestion, r.max_congestion);
    if (r.max_congestion > 1) ++s.cac_violations;
    if (s.phases.empty() || s.phases.back().first != r.kernel) s.phases.emplace_back(r.kernel, 0);
    s.phases.back().second += r.time_units.value_or(0);
  }
  // Merge repeated visits of a phase name (e.g. the row sorts of each round) into one entry.
  std::vector<std::pair<std::string, std::int64_t>> merged;
  for (const auto& [name, t] : s.phases) {
    auto it = std::find_if(merged.begin(), merged.end(), [&](const auto& e) { return e.first == name; });
    if (it == merged.end()) merged.emplace_back(name, t);
    else it->second += t;
  }
  s.phases = std::move(merged);
  return s;
}

}  // namespace mmsim::sorting
