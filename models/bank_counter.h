// Distinct requests per bank of one warp access: the one bank counter behind the DMM's slot rule
// (models/congestion.cpp) and the congestion Monte Carlo (NMI Sect. II), fast enough for
// tens of millions of warp accesses.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/types.h"

namespace mmsim {

/// Counts distinct requests per bank with one counter per bank (generation-stamped, so a warp costs
/// O(w), not a clearing of all banks). Equal addresses merge (NMI Sect. II): when an access may
/// name one address twice, each bank keeps a chain of the threads counted in it and a new request is
/// checked against that chain only, whose length is the bank's count so far.
class BankCounter {
 public:
  explicit BankCounter(std::uint32_t w = 0) { resize(w); }

  /// Serves accesses of width w from now on (keeps the storage when w is unchanged).
  void resize(std::uint32_t w) {
    if (count_.size() == w) return;
    count_.assign(w, 0);
    stamp_.assign(w, 0);
    head_.assign(w, 0);
    next_.assign(w, 0);
    address_.assign(w, 0);
    gen_ = 0;
  }

  /// Starts a warp access.
  void start() {
    if (++gen_ == 0) {
      std::fill(stamp_.begin(), stamp_.end(), 0);
      gen_ = 1;
    }
  }
  /// A request to `bank` whose address differs from every other request of the access; returns the
  /// bank's count so far (the caller keeps the maximum in a register).
  std::uint32_t add(std::uint32_t bank) {
    touch(bank);
    return ++count_[bank];
  }
  /// Request number `t` (< w) of the access, which may repeat an earlier address: then it merges
  /// (NMI Sect. II) and 0 is returned, else the bank's count so far.
  std::uint32_t add_unique(std::uint32_t bank, Address address, std::uint32_t t) {
    touch(bank);
    for (std::uint32_t u = head_[bank]; u != kNone; u = next_[u])
      if (address_[u] == address) return 0;
    address_[t] = address;
    next_[t] = head_[bank];
    head_[bank] = t;
    return ++count_[bank];
  }

  /// Congestion of the n <= w requests (bank[t], address[t]); `distinct` promises no address repeats.
  int congestion(const std::uint32_t* bank, const Address* address, std::uint32_t n, bool distinct) {
    start();
    std::uint32_t worst = 0;
    for (std::uint32_t t = 0; t < n; ++t)
      worst = std::max(worst, distinct ? add(bank[t]) : add_unique(bank[t], address[t], t));
    return static_cast<int>(worst);
  }

 private:
  void touch(std::uint32_t bank) {
    if (stamp_[bank] != gen_) {
      stamp_[bank] = gen_;
      count_[bank] = 0;
      head_[bank] = kNone;
    }
  }
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  std::vector<std::uint32_t> count_, stamp_, head_, next_;
  std::vector<Address> address_;
  std::uint32_t gen_ = 0;
};

}  // namespace mmsim
