#include "predict/cost_model.h"

namespace mmsim::predict {

std::string_view to_string(CostModel m) {
  switch (m) {
    case CostModel::Papers:
      return "papers";
    case CostModel::Sectors:
      return "sectors";
    case CostModel::SectorsReadWrite:
      return "sectors-rw";
    case CostModel::SectorsReadWriteCache:
      return "sectors-rw-cache";
    case CostModel::DramRows:
      return "dram-rows";
    case CostModel::DramRmw:
      return "dram-rmw";
    case CostModel::L2Lines:
      return "l2-lines";
    case CostModel::RmwRows:
      return "rmw-rows";
  }
  return "?";
}

std::optional<CostModel> cost_model_from_name(std::string_view name) {
  for (CostModel m : kCostModels)
    if (to_string(m) == name) return m;
  return std::nullopt;
}

std::vector<std::string> constant_names(CostModel m) {
  switch (m) {
    case CostModel::Papers:
      return {"launch_ms", "umm_slot_ms", "shared_time_unit_ms"};
    case CostModel::Sectors:
      return {"launch_ms", "sector_ms", "shared_time_unit_ms"};
    case CostModel::SectorsReadWrite:
      return {"launch_ms", "read_sector_ms", "write_sector_ms", "shared_time_unit_ms"};
    case CostModel::SectorsReadWriteCache:
      return {"launch_ms", "l2_line_ms", "l2_sector_ms", "dram_read_ms", "dram_write_ms", "shared_time_unit_ms"};
    case CostModel::DramRows:
      return {"launch_ms",     "l2_line_ms",    "l2_sector_ms",       "dram_read_ms",
              "dram_write_ms", "activation_ms", "shared_time_unit_ms"};
    case CostModel::DramRmw:
      return {"launch_ms",     "l2_line_ms",         "l2_sector_ms",        "dram_read_ms",
              "dram_write_ms", "read_activation_ms", "write_activation_ms", "shared_time_unit_ms"};
    case CostModel::L2Lines:
      return {"launch_ms",     "l2_line_ms",         "l2_sector_ms",        "dram_read_ms",
              "dram_write_ms", "read_activation_ms", "write_activation_ms", "shared_time_unit_ms"};
    case CostModel::RmwRows:
      return {"launch_ms",     "l2_line_ms",    "l2_sector_ms",      "dram_read_ms",
              "dram_write_ms", "activation_ms", "rmw_activation_ms", "shared_time_unit_ms"};
  }
  return {};
}

std::vector<double> features(CostModel m, const RunCounts& c) {
  const auto d = [](std::uint64_t x) { return static_cast<double>(x); };
  const GpuMemoryStats& s = c.memory;
  switch (m) {
    case CostModel::Papers:
      return {d(c.launches), d(c.memory.umm_groups), d(c.shared_time_units)};
    case CostModel::Sectors:
      return {d(c.launches), d(s.sectors()), d(c.shared_time_units)};
    case CostModel::SectorsReadWrite:
      return {d(c.launches), d(s.read_sectors), d(s.write_sectors), d(c.shared_time_units)};
    case CostModel::SectorsReadWriteCache:
      return {d(c.launches), d(s.lines), d(s.sectors()), d(s.dram_reads), d(s.dram_writes), d(c.shared_time_units)};
    case CostModel::DramRows:
      return {d(c.launches),    d(s.lines),       d(s.sectors()),        d(s.dram_reads),
              d(s.dram_writes), d(s.activations), d(c.shared_time_units)};
    case CostModel::DramRmw:
      return {d(c.launches),          d(s.lines),
              d(s.sectors()),         d(s.dram_reads),
              d(s.dram_writes),       d(s.read_activations),
              d(s.write_activations), d(c.shared_time_units)};
    case CostModel::L2Lines: {
      const GpuMemoryStats& l = c.line_memory;
      return {d(c.launches),          d(s.lines),
              d(s.sectors()),         d(l.dram_reads),
              d(l.dram_writes),       d(l.read_activations),
              d(l.write_activations), d(c.shared_time_units)};
    }
    case CostModel::RmwRows:
      // Every row opened but the read-modify-writes', then those.
      return {d(c.launches),        d(s.lines),
              d(s.sectors()),       d(s.dram_reads),
              d(s.dram_writes),     d(s.read_activations + s.write_activations - s.rmw_activations),
              d(s.rmw_activations), d(c.shared_time_units)};
  }
  return {};
}

}  // namespace mmsim::predict
