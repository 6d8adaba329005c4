#include "algorithms/sorting/matrix_dmm.h"

#include <algorithm>
#include <stdexcept>

namespace mmsim::sorting {

namespace {
MachineParams dmm_params(int w) {
  MachineParams p;
  p.model = ModelKind::Dmm;
  p.w = w;
  p.l = 1;  // AS Sect. 1: every access takes one time unit
  return p;
}
}  // namespace

MatrixDmm::MatrixDmm(int w, std::uint64_t columns, EngineOptions options)
    : w_(w),
      columns_(columns),
      machine_(std::make_unique<Machine>(dmm_params(w))),
      engine_(std::make_unique<Engine>(machine_->view(), options)),
      addr_(static_cast<std::size_t>(w), kNoAddress),
      val_(static_cast<std::size_t>(w), 0) {
  // AS Sect. 1: the w processors proceed synchronously, one warp access a step; an asynchronous
  // engine would leave the rounds without their time.
  if (options.execution != Execution::RoundSynchronous)
    throw std::logic_error("MatrixDmm: the matrix DMM runs round-synchronously");
  array_ = engine_->add_array({"matrix", Space::Shared, columns * static_cast<std::uint64_t>(w)});
  (void)engine_->shared(array_, 0);
  // Two kernels of one warp, reused for every step: the host fills addr_/val_ before each launch.
  const auto address = [this](const Thread& t) -> Address { return addr_[t.local()]; };
  read_ = Kernel{
      "start",
      1,
      static_cast<std::uint32_t>(w),
      1,
      {Access{"read", Op::Read, array_, 0, address}, Compute{[this](const Thread& t) { val_[t.local()] = t.reg(0); }}}};
  write_ = Kernel{"start",
                  1,
                  static_cast<std::uint32_t>(w),
                  1,
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
  }
  return s;
}

}  // namespace mmsim::sorting
