#include "models/machines.h"

#include <stdexcept>

#include "models/congestion.h"
#include "sim/names.h"

namespace mmsim {

WarpCost DmmMemory::cost(std::span<const Address> warp) const { return bank_cost(warp, w_); }
std::vector<std::vector<Address>> DmmMemory::partition(std::span<const Address> warp) const {
  return bank_slots(warp, w_);
}
WarpCost UmmMemory::cost(std::span<const Address> warp) const { return group_cost(warp, w_); }
std::vector<std::vector<Address>> UmmMemory::partition(std::span<const Address> warp) const {
  return group_slots(warp, w_);
}

namespace {
constexpr NameTable<ModelKind, 3> kModelNames{
    {{{ModelKind::Dmm, "dmm"}, {ModelKind::Umm, "umm"}, {ModelKind::Hmm, "hmm"}}}};
}  // namespace

const char* to_string(ModelKind m) { return kModelNames.name(m); }
std::optional<ModelKind> model_from_name(std::string_view name) { return kModelNames.parse(name); }

std::optional<std::string> MachineParams::validate() const {
  // Widths past 2^16 would make warps larger than any machine the papers consider.
  if (w < 1 || w > 65536) return "w: must be between 1 and 65536";
  if (l < 1) return "l: latency must be >= 1";
  if (model == ModelKind::Hmm) {
    if (L < 1) return "L: latency must be >= 1";
    if (k < 1) return "k: number of DMMs must be >= 1";
  }
  return std::nullopt;
}

Machine::Machine(const MachineParams& params) : params_(params) {
  if (auto err = params.validate()) throw std::invalid_argument(*err);
  switch (params.model) {
    case ModelKind::Dmm:
      shared_ = std::make_unique<DmmMemory>(params.w, params.l);
      break;
    case ModelKind::Umm:
      global_ = std::make_unique<UmmMemory>(params.w, params.l);
      break;
    case ModelKind::Hmm:
      shared_ = std::make_unique<DmmMemory>(params.w, params.l);
      global_ = std::make_unique<UmmMemory>(params.w, params.L);
      break;
  }
}

MachineView Machine::view() const {
  MachineView v;
  v.shared = shared_.get();
  v.global = global_.get();
  v.dmms = params_.model == ModelKind::Hmm ? params_.k : 1;
  return v;
}

}  // namespace mmsim
