#include "models/gpu_memory/gpu_memory.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <thread>

namespace mmsim {

std::optional<std::string> GpuMemoryParams::validate() const {
  if (sector_bytes < 4 || sector_bytes > 64 || !std::has_single_bit(sector_bytes))
    return "sector-bytes: must be a power of two from 4 to 64";
  if (element_bytes == 0 || element_bytes > sector_bytes || !std::has_single_bit(element_bytes))
    return "element-bytes: must be a power of two no larger than a sector";
  if (cache_bytes > (std::uint64_t{1} << 34)) return "cache-bytes: at most 16 GiB";
  if (cache_ways < 1 || cache_ways > 64) return "cache-ways: must be between 1 and 64";
  if (dram_row_bytes != 0 &&
      (dram_row_bytes < sector_bytes || dram_row_bytes > 65536 || !std::has_single_bit(dram_row_bytes)))
    return "dram-row-bytes: must be 0 or a power of two from a sector to 65536";
  if (dram_banks < 1 || dram_banks > 65536) return "dram-banks: must be between 1 and 65536";
  if (dram_write_rows < 1 || dram_write_rows > (1u << 20) || !std::has_single_bit(dram_write_rows))
    return "dram-write-rows: must be a power of two from 1 to 1048576";
  if (cache_line_bytes != 0 && (cache_line_bytes < sector_bytes || cache_line_bytes > 1024 ||
                                !std::has_single_bit(cache_line_bytes) || cache_bytes == 0))
    return "cache-line-bytes: must be 0 or a power of two from a sector to 1024, with a cache";
  if (cache_bytes > 0 && cache_bytes < std::uint64_t{std::max(sector_bytes, cache_line_bytes)} * cache_ways)
    return "cache-bytes: must hold at least one set of cache-ways sectors";
  return std::nullopt;
}

// ---- DRAM rows ----

DramRows::DramRows(std::uint32_t sector_bytes, std::uint32_t row_bytes, std::uint32_t banks, std::uint32_t write_rows) {
  if (row_bytes == 0) return;
  sectors_per_row_ = row_bytes / sector_bytes;
  open_.assign(banks, 0);
  open_reads_.assign(banks, 0);
  written_.assign(write_rows, 0);
}

bool DramRows::open(std::vector<std::uint64_t>& table, std::uint64_t row) {
  const std::uint64_t h = row * 0x9E3779B97F4A7C15ull >> 17;
  std::uint64_t& slot = table[static_cast<std::size_t>(h % table.size())];
  if (slot == row + 1) return false;
  slot = row + 1;
  return true;
}

void DramRows::read(std::uint64_t sector, GpuMemoryStats& stats) {
  if (open_.empty()) return;
  if (open(open_, row_of(sector))) ++stats.activations;
  if (open(open_reads_, row_of(sector))) ++stats.read_activations;
}

void DramRows::fill(std::uint64_t sector, GpuMemoryStats& stats) {
  if (open_.empty()) return;
  if (open(open_, row_of(sector))) ++stats.activations;
}

void DramRows::write(std::uint64_t sector, bool merged, GpuMemoryStats& stats) {
  if (open_.empty()) return;
  if (open(written_, row_of(sector))) {
    ++stats.activations;
    ++stats.write_activations;
    if (merged) ++stats.rmw_activations;
  }
}

// ---- the cache ----

SectorCache::SectorCache(std::uint64_t sectors, std::uint32_t ways, std::uint64_t full_mask, DramRows* dram,
                         std::uint32_t sectors_per_line)
    : dram_(dram),
      ways_(ways),
      per_line_(std::max(1u, sectors_per_line)),
      sets_(std::max<std::uint64_t>(1, sectors / per_line_ / ways)),
      full_(full_mask) {
  lines_.resize(static_cast<std::size_t>(sets_ * ways_));
  bytes_.resize(lines_.size() * per_line_);
}

// The set of a line: a mix of its bits, as GPUs hash addresses over their L2 slices, so that
// arrays at round bases and strided walks do not pile into a few sets.
static std::uint64_t set_hash(std::uint64_t line) {
  std::uint64_t x = line * 0x9E3779B97F4A7C15ull;
  return x ^ (x >> 29);
}

void SectorCache::prefetch(std::uint64_t sector) const {
  const std::uint64_t line = sector / per_line_;
  const Way* set = &lines_[static_cast<std::size_t>((set_hash(line) % sets_) * ways_)];
  const auto* first = reinterpret_cast<const char*>(set);
  for (std::size_t b = 0; b < ways_ * sizeof(Way); b += 64) __builtin_prefetch(first + b);
}

SectorCache::Bytes& SectorCache::find_or_install(std::uint64_t sector, bool& hit, GpuMemoryStats& stats) {
  const std::uint64_t line = sector / per_line_;
  const std::size_t first = static_cast<std::size_t>((set_hash(line) % sets_) * ways_);
  std::size_t victim = first;
  for (std::size_t i = first; i < first + ways_; ++i) {
    Way& way = lines_[i];
    if (way.used && way.tag == line) {
      hit = true;
      way.stamp = ++clock_;
      return bytes_[i * per_line_ + sector % per_line_];
    }
    // An empty way first, else the least recently used.
    if (lines_[victim].used && (!way.used || way.stamp < lines_[victim].stamp)) victim = i;
  }
  hit = false;
  evict(victim, stats);
  lines_[victim] = Way{line, ++clock_, true};
  return bytes_[victim * per_line_ + sector % per_line_];
}

void SectorCache::evict(std::size_t way, GpuMemoryStats& stats) {
  if (!lines_[way].used) return;
  for (std::uint32_t i = 0; i < per_line_; ++i) {
    Bytes& b = bytes_[way * per_line_ + i];
    const std::uint64_t sector = lines_[way].tag * per_line_ + i;
    if (b.dirty != 0) {
      const bool partial = b.valid != full_;
      if (partial) {  // merge the partial sector with memory before writing it
        ++stats.dram_reads;
        ++stats.fills;
        if (dram_) dram_->fill(sector, stats);
      }
      ++stats.dram_writes;
      if (dram_) dram_->write(sector, partial, stats);
    }
    b = Bytes{};
  }
  lines_[way].used = false;
}

bool SectorCache::read(std::uint64_t sector, std::uint64_t need, GpuMemoryStats& stats) {
  bool held = false;
  Bytes& b = find_or_install(sector, held, stats);
  const bool hit = held && (b.valid & need) == need;
  if (!hit) {
    ++stats.dram_reads;
    if (dram_) dram_->read(sector, stats);
    b.valid = full_;  // the whole sector comes in; bytes written here stay newer
  }
  return hit;
}

bool SectorCache::write(std::uint64_t sector, std::uint64_t mask, GpuMemoryStats& stats) {
  bool held = false;
  Bytes& b = find_or_install(sector, held, stats);
  b.valid |= mask;
  b.dirty |= mask;
  return held;
}

void SectorCache::flush(GpuMemoryStats& stats) {
  for (std::size_t i = 0; i < lines_.size(); ++i) evict(i, stats);
}

// ---- the caches on threads of their own ----

// A queue of requests that every cache thread reads in full, in order: the engine's thread appends
// a warp access's sectors and publishes them at once; each cache thread applies them to its cache
// and moves its own read position. A thread with nothing to do spins a little, then sleeps until
// told (the engine tells only when one sleeps, so a busy queue costs no system call).
struct GpuGlobalMemory::CacheThreads {
  static constexpr std::size_t kSlots = std::size_t{1} << 16;  // requests in flight, a power of two

  explicit CacheThreads(const GpuGlobalMemory& m) : slots(kSlots) {
    caches.push_back({&*m.cache_, &m.cache_stats_});
    if (m.line_cache_) caches.push_back({&*m.line_cache_, &m.line_stats_});
    read = std::make_unique<std::atomic<std::uint64_t>[]>(caches.size());
    for (std::size_t i = 0; i < caches.size(); ++i) {
      read[i].store(0);
      workers.emplace_back([this, i] { run(i); });
    }
  }
  ~CacheThreads() {
    stop.store(true);
    wake();
    for (auto& t : workers) t.join();
  }

  void push(const std::vector<Touch>& touched, bool write) {
    std::uint64_t at = written.load(std::memory_order_relaxed);
    for (const Touch& t : touched) {
      while (at - slowest() >= kSlots) std::this_thread::yield();  // full: the caches are behind
      slots[at++ & (kSlots - 1)] = {t.sector, t.mask, write};
    }
    written.store(at);  // sequentially consistent: ordered before the look at `sleeping`
    if (sleeping.load() > 0) wake();
  }

  void drain() const {
    const std::uint64_t end = written.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < caches.size(); ++i)
      while (read[i].load(std::memory_order_acquire) != end) std::this_thread::yield();
  }

 private:
  struct Target {
    SectorCache* cache;
    GpuMemoryStats* stats;
  };

  std::uint64_t slowest() const {
    std::uint64_t low = ~std::uint64_t{0};
    for (std::size_t i = 0; i < caches.size(); ++i) low = std::min(low, read[i].load(std::memory_order_acquire));
    return low;
  }
  void wake() {
    signal.fetch_add(1);
    signal.notify_all();
  }
  void run(std::size_t i) {
    const Target target = caches[i];
    std::uint64_t at = 0;
    int idle = 0;
    for (;;) {
      const std::uint64_t end = written.load(std::memory_order_acquire);
      if (at == end) {
        if (stop.load()) return;
        if (++idle < 4096) continue;
        // Sleep; the engine's next push (or the stop) wakes this thread. Announce first, then look
        // again, so that a push between the look and the sleep is not missed.
        const std::uint32_t seen = signal.load();
        sleeping.fetch_add(1);
        if (written.load() == at && !stop.load()) signal.wait(seen);
        sleeping.fetch_sub(1);
        idle = 0;
        continue;
      }
      idle = 0;
      // A batch at a time: the host fetches its sets together, then the cache takes them in order.
      const std::uint64_t stop_at = std::min(end, at + 64);
      for (std::uint64_t k = at; k < stop_at; ++k) target.cache->prefetch(slots[k & (kSlots - 1)].sector);
      for (; at < stop_at; ++at) apply(*target.cache, slots[at & (kSlots - 1)], *target.stats);
      read[i].store(at, std::memory_order_release);
    }
  }

  std::vector<Request> slots;
  std::vector<Target> caches;
  std::atomic<std::uint64_t> written{0};
  std::unique_ptr<std::atomic<std::uint64_t>[]> read;
  std::atomic<std::uint32_t> signal{0};
  std::atomic<int> sleeping{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> workers;
};

void GpuGlobalMemory::drain() const {
  if (threads_) threads_->drain();
}

// ---- the memory ----

GpuGlobalMemory::GpuGlobalMemory(int w, int latency, const GpuMemoryParams& params, bool caches_on_threads)
    : w_(w),
      latency_(latency),
      params_(params),
      dram_(params.sector_bytes, params.dram_row_bytes, params.dram_banks, params.dram_write_rows),
      line_dram_(params.sector_bytes, params.cache_line_bytes != 0 ? params.dram_row_bytes : 0, params.dram_banks,
                 params.dram_write_rows) {
  if (auto err = params.validate()) throw std::invalid_argument(*err);
  sector_shift_ = std::countr_zero(params.sector_bytes);
  full_mask_ = params.sector_bytes == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << params.sector_bytes) - 1;
  if (params.has_cache())
    cache_.emplace(params.cache_bytes / params.sector_bytes, params.cache_ways, full_mask_, &dram_);
  if (params.cache_line_bytes != 0)
    line_cache_.emplace(params.cache_bytes / params.sector_bytes, params.cache_ways, full_mask_, &line_dram_,
                        params.cache_line_bytes / params.sector_bytes);
  touched_.reserve(static_cast<std::size_t>(w));
  groups_.reserve(static_cast<std::size_t>(w));
  if (caches_on_threads && cache_) threads_ = std::make_unique<CacheThreads>(*this);
}

GpuGlobalMemory::~GpuGlobalMemory() = default;  // CacheThreads' destructor stops and joins them

void GpuGlobalMemory::sectors_of(std::span<const Address> warp, const AccessContext& context) const {
  const std::uint64_t bytes = context.element_bytes != 0 ? context.element_bytes : params_.element_bytes;
  const std::uint64_t base = static_cast<std::uint64_t>(context.array) << 40;
  touched_.clear();
  groups_.clear();
  lines_.clear();
  for (Address a : warp) {
    if (a == kNoAddress) continue;
    const Address group = a / static_cast<Address>(w_);
    if (std::find(groups_.begin(), groups_.end(), group) == groups_.end()) groups_.push_back(group);
    const std::uint64_t byte = base + a * bytes;
    const std::uint64_t sector = byte >> sector_shift_;
    // An L2 serves a warp's request as one transaction per 128-byte line it touches.
    if (std::find(lines_.begin(), lines_.end(), byte >> 7) == lines_.end()) lines_.push_back(byte >> 7);
    const std::uint64_t offset = byte & (params_.sector_bytes - 1);
    // An element larger than what is left of the sector spills over: only with misaligned sizes,
    // which validate() excludes (element and sector are powers of two, element <= sector).
    const std::uint64_t mask = (bytes == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << bytes) - 1)) << offset;
    auto it = std::find_if(touched_.begin(), touched_.end(), [&](const Touch& t) { return t.sector == sector; });
    if (it == touched_.end())
      touched_.push_back({sector, mask});
    else
      it->mask |= mask;
  }
}

WarpCost GpuGlobalMemory::cost(std::span<const Address> warp) const { return cost_access(warp, AccessContext{}); }

WarpCost GpuGlobalMemory::cost_access(std::span<const Address> warp, const AccessContext& context) const {
  sectors_of(warp, context);
  const auto sectors = static_cast<int>(touched_.size());
  if (sectors == 0) return {};
  ++stats_.accesses;
  stats_.umm_groups += groups_.size();
  stats_.lines += lines_.size();
  const bool write = context.op == Op::Write;
  (write ? stats_.write_sectors : stats_.read_sectors) += touched_.size();
  if (!cache_) {
    for (const Touch& t : touched_) {
      ++(write ? stats_.dram_writes : stats_.dram_reads);
      if (write)
        dram_.write(t.sector, false, stats_);  // no cache, no merge: fills are the cache's
      else
        dram_.read(t.sector, stats_);
    }
  } else if (threads_) {
    threads_->push(touched_, write);
  } else {
    for (const Touch& t : touched_) {
      cache_->prefetch(t.sector);
      if (line_cache_) line_cache_->prefetch(t.sector);
    }
    for (const Touch& t : touched_) {
      apply(*cache_, {t.sector, t.mask, write}, cache_stats_);
      if (line_cache_) apply(*line_cache_, {t.sector, t.mask, write}, line_stats_);
    }
  }
  return {sectors, sectors, 0};
}

void GpuGlobalMemory::apply(SectorCache& cache, const Request& r, GpuMemoryStats& stats) {
  if (r.write ? cache.write(r.sector, r.mask, stats) : cache.read(r.sector, r.mask, stats)) ++stats.hits;
}

std::vector<std::vector<Address>> GpuGlobalMemory::partition(std::span<const Address> warp) const {
  // Traces only: requests grouped by data sector, in first-touch order.
  const std::uint64_t per_sector = params_.sector_bytes / params_.element_bytes;
  std::vector<std::vector<Address>> slots;
  std::vector<std::uint64_t> keys;
  for (Address a : warp) {
    if (a == kNoAddress) continue;
    const std::uint64_t key = a / per_sector;
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(key);
      slots.push_back({a});
    } else {
      auto& s = slots[static_cast<std::size_t>(it - keys.begin())];
      if (std::find(s.begin(), s.end(), a) == s.end()) s.push_back(a);
    }
  }
  return slots;
}

void GpuGlobalMemory::flush() const {
  drain();
  if (cache_) cache_->flush(cache_stats_);
  if (line_cache_) line_cache_->flush(line_stats_);
}

static_assert(sizeof(GpuMemoryStats) == 13 * sizeof(std::uint64_t), "GpuMemoryStats changed: add it up in stats()");

const GpuMemoryStats& GpuGlobalMemory::stats() const {
  drain();
  merged_ = stats_;
  const GpuMemoryStats& c = cache_stats_;
  merged_.accesses += c.accesses;
  merged_.umm_groups += c.umm_groups;
  merged_.lines += c.lines;
  merged_.read_sectors += c.read_sectors;
  merged_.write_sectors += c.write_sectors;
  merged_.hits += c.hits;
  merged_.dram_reads += c.dram_reads;
  merged_.fills += c.fills;
  merged_.dram_writes += c.dram_writes;
  merged_.activations += c.activations;
  merged_.read_activations += c.read_activations;
  merged_.write_activations += c.write_activations;
  merged_.rmw_activations += c.rmw_activations;
  return merged_;
}

const GpuMemoryStats& GpuGlobalMemory::line_stats() const {
  drain();
  return line_stats_;
}

void GpuGlobalMemory::reset_counters() const {
  drain();
  stats_ = cache_stats_ = line_stats_ = {};
}

}  // namespace mmsim
