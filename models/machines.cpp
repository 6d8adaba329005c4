#include "models/machines.h"

#include <stdexcept>

#include "models/congestion.h"
#include "models/real_accesses.h"
#include "sim/names.h"

namespace mmsim {

std::optional<std::string> PipelinedMemory::refuses(const AccessContext& context) const {
  if (context.vector > 1 && !extensions_.widths) return MemoryModel::refuses(context);
  if (extensions_.widths) {
    const std::uint32_t e = context.element_bytes == 0 ? 4 : context.element_bytes;
    if (e != 1 && e != 2 && e != 4 && e != 8 && e != 16) return std::string("an element is 1, 2, 4, 8 or 16 bytes");
    if (e * std::max(1u, context.vector) > 16) return std::string("a thread moves at most 16 bytes an instruction");
  }
  if (context.op == Op::Atomic && context.element_bytes != 0 && context.element_bytes != 4 && extensions_.widths)
    return std::string("an atomic updates a 4-byte word");
  return std::nullopt;
}

// The papers' rule unless an extension changes this access: widths for other than one word per
// thread, atomics for an update that serialises. Where neither does, both rules agree.
bool PipelinedMemory::shaped(const AccessContext& context) const {
  if (!extensions_.widths && !extensions_.atomics) return false;  // the papers' model: asked per warp
  const AccessShape s = shape_of(context);
  const bool wide = extensions_.widths && (s.element_bytes != 4 || s.vector != 1);
  const bool serial = extensions_.atomics && s.atomic != AtomicOp::None;
  return wide || serial;
}

namespace {
// The shape as the extensions that are on see it: with atomics off an atomic merges like a read.
AccessShape shape_seen(const AccessContext& context, const Extensions& e) {
  AccessShape s = shape_of(context);
  if (!e.atomics) s.atomic = AtomicOp::None;
  if (!e.widths) s.element_bytes = 4, s.vector = 1;
  return s;
}
}  // namespace

namespace {
// Each rule's functions: the papers' (models/congestion.h) and the extensions' (models/real_accesses.h).
struct RuleFunctions {
  WarpCost (*cost)(std::span<const Address>, int);
  WarpCost (*shaped_cost)(std::span<const Address>, int, const AccessShape&);
  std::vector<std::vector<Address>> (*slots)(std::span<const Address>, int);
  std::vector<std::vector<Address>> (*shaped_slots)(std::span<const Address>, int, const AccessShape&);
};
constexpr RuleFunctions kBankRule{bank_cost, shaped_bank_cost, bank_slots, shaped_bank_slots};
constexpr RuleFunctions kGroupRule{group_cost, shaped_group_cost, group_slots, shaped_group_slots};
template <SlotRule R>
constexpr const RuleFunctions& rule() {
  return R == SlotRule::Banks ? kBankRule : kGroupRule;
}
}  // namespace

template <SlotRule R>
WarpCost RuledMemory<R>::cost(std::span<const Address> warp) const {
  return rule<R>().cost(warp, w_);
}
template <SlotRule R>
WarpCost RuledMemory<R>::cost_access(std::span<const Address> warp, const AccessContext& context) const {
  return shaped(context) ? rule<R>().shaped_cost(warp, w_, shape_seen(context, extensions_)) : cost(warp);
}
template <SlotRule R>
std::vector<std::vector<Address>> RuledMemory<R>::partition(std::span<const Address> warp) const {
  return rule<R>().slots(warp, w_);
}
template <SlotRule R>
std::vector<std::vector<Address>> RuledMemory<R>::partition_access(std::span<const Address> warp,
                                                                   const AccessContext& context) const {
  return shaped(context) ? rule<R>().shaped_slots(warp, w_, shape_seen(context, extensions_)) : partition(warp);
}
template class RuledMemory<SlotRule::Banks>;
template class RuledMemory<SlotRule::Groups>;

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
      shared_ = std::make_unique<DmmMemory>(params.w, params.l, params.extensions);
      break;
    case ModelKind::Umm:
      global_ = std::make_unique<UmmMemory>(params.w, params.l, params.extensions);
      break;
    case ModelKind::Hmm:
      shared_ = std::make_unique<DmmMemory>(params.w, params.l, params.extensions);
      global_ = std::make_unique<UmmMemory>(params.w, params.L, params.extensions);
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
