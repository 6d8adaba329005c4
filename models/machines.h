// Folder models/ (target mmsim::models): the memory machine models. It owns the DMM, UMM and HMM
// (this header), their slot rules (congestion.h), address layouts (layouts/), the TLB (tlb/) and
// the GPU-like global memory the predictor uses (gpu_memory/), each a MemoryModel of sim/. It may
// include sim/ and the standard library.
//
// The three memory machine models of KNI Sect. 2: DMM, UMM and HMM.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "sim/engine.h"
#include "sim/memory_model.h"

namespace mmsim {

/// The named extensions of the machine beyond the papers (docs/model.md, "Real accesses"), each
/// off in the papers' model and on in a GPU profile's machine:
///  - widths: arrays of 1- to 16-byte elements and vector accesses of 2 or 4 elements, on banks of
///    4-byte words served in half- or quarter-warp phases (off: every cell is one word and a thread
///    moves one cell);
///  - atomics: an atomic update of one address by several threads of a warp costs one request per
///    thread, except an unused increment (off: equal addresses merge, as for any access).
struct Extensions {
  bool widths = false;
  bool atomics = false;
};

/// What the DMM's and the UMM's memories share: a width, one pipeline's latency, the extensions.
class PipelinedMemory : public MemoryModel {
 public:
  PipelinedMemory(int w, int latency, Extensions extensions = {}) : w_(w), latency_(latency), extensions_(extensions) {}
  int width() const override { return w_; }
  int latency() const override { return latency_; }
  std::optional<std::string> refuses(const AccessContext& context) const override;

 protected:
  /// Whether an access is priced by the papers' rule or by the extensions' (models/real_accesses.h).
  bool shaped(const AccessContext& context) const;
  int w_, latency_;
  Extensions extensions_;
};

/// The two slot rules of a pipelined memory (models/congestion.h; widths and atomics in
/// models/real_accesses.h): the DMM's banks and the UMM's address groups.
enum class SlotRule { Banks, Groups };

/// A pipelined memory priced by one slot rule. The DMM's and the UMM's memories differ only in
/// that rule, so one class serves both (DmmMemory, UmmMemory below).
template <SlotRule R>
class RuledMemory final : public PipelinedMemory {
 public:
  using PipelinedMemory::PipelinedMemory;
  std::string_view name() const override { return R == SlotRule::Banks ? "dmm" : "umm"; }
  WarpCost cost(std::span<const Address> warp) const override;
  WarpCost cost_access(std::span<const Address> warp, const AccessContext& context) const override;
  std::vector<std::vector<Address>> partition(std::span<const Address> warp) const override;
  std::vector<std::vector<Address>> partition_access(std::span<const Address> warp,
                                                     const AccessContext& context) const override;
  bool order_free() const override { return true; }  // models/congestion.cpp: scratch is thread_local
};
extern template class RuledMemory<SlotRule::Banks>;
extern template class RuledMemory<SlotRule::Groups>;

/// A DMM's memory (and each HMM DMM's shared memory): bank = address mod w, slots = congestion.
using DmmMemory = RuledMemory<SlotRule::Banks>;
/// A UMM's memory (and the HMM's global memory): address group = floor(address / w), slots =
/// distinct address groups.
using UmmMemory = RuledMemory<SlotRule::Groups>;

enum class ModelKind { Dmm, Umm, Hmm };

/// Parameters of a machine (docs/model.md "Parameters"). `validate` names the first bad field.
struct MachineParams {
  ModelKind model = ModelKind::Hmm;
  int w = 32;               ///< width
  int l = 1;                ///< latency of a DMM / UMM memory, or of each DMM's shared memory in the HMM
  int L = 100;              ///< latency of the HMM's global memory
  int k = 8;                ///< DMMs in the HMM
  Extensions extensions{};  ///< beyond the papers: all off by default

  /// Empty when valid, else one line "NAME: rule".
  std::optional<std::string> validate() const;
};

const char* to_string(ModelKind m);
/// "dmm", "umm" or "hmm"; nullopt otherwise.
std::optional<ModelKind> model_from_name(std::string_view name);

/// Owns the memory models of a machine and hands the engine its view of them.
class Machine {
 public:
  explicit Machine(const MachineParams& params);
  const MachineParams& params() const { return params_; }
  MachineView view() const;

 private:
  MachineParams params_;
  std::unique_ptr<MemoryModel> shared_;
  std::unique_ptr<MemoryModel> global_;
};

}  // namespace mmsim
