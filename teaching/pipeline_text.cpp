#include "teaching/pipeline_text.h"

#include <algorithm>
#include <map>

namespace mmsim::teaching {

namespace {
std::string pad(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}
std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}
}  // namespace

std::optional<std::string> stage_grid(const std::vector<SlotEvent>& events, const std::vector<PipelineLane>& lanes,
                                      const std::function<std::string(const SlotEvent&)>& label,
                                      const GridLimits& limits, std::string* why_not) {
  TimeUnits end = 0;
  for (const auto& e : events) end = std::max(end, e.complete + 1);
  long columns = 0;
  for (const auto& l : lanes) columns += l.latency;
  const auto refuse = [why_not](std::string why) -> std::optional<std::string> {
    if (why_not) *why_not = std::move(why);
    return std::nullopt;
  };
  if (columns > limits.max_stage_columns)
    return refuse(std::to_string(columns) + " pipeline stages are more than the " +
                  std::to_string(limits.max_stage_columns) + " columns a text diagram holds");
  if (end > limits.max_rows)
    return refuse(std::to_string(end) + " time units are more than the " + std::to_string(limits.max_rows) +
                  " rows a text diagram holds");

  // (memory, enter) -> label: at most one slot enters a pipeline per time unit.
  std::map<std::pair<int, TimeUnits>, std::string> entering;
  std::size_t width = 3;
  for (const auto& e : events) {
    auto name = label(e);
    width = std::max(width, name.size());
    entering[{e.memory, e.enter}] = std::move(name);
  }
  width += 1;  // a blank between cells
  const std::size_t tw = std::max<std::size_t>(4, std::to_string(end).size());

  // Each lane's cell width: the widest label, and enough for the lane's name above its stages
  // (latencies are for the caller to say).
  const bool named = lanes.size() > 1;
  std::vector<std::string> header;
  std::vector<std::size_t> cw;
  for (const auto& l : lanes) {
    header.push_back(l.name);
    const auto lat = static_cast<std::size_t>(l.latency);
    cw.push_back(named ? std::max(width, (header.back().size() + 1 + lat - 1) / lat - 1) : width);
  }
  const auto strip = [](std::string& s) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
  };
  std::string out;
  if (named) {  // a line naming each lane above its stages
    out += std::string(tw, ' ') + " |";
    for (std::size_t k = 0; k < lanes.size(); ++k)
      out += " " + pad(header[k], static_cast<std::size_t>(lanes[k].latency) * (cw[k] + 1) - 1) + "|";
    out += "\n";
  }
  out += pad("time", tw) + " |";
  for (std::size_t k = 0; k < lanes.size(); ++k) {
    for (int s = 1; s <= lanes[k].latency; ++s) out += " " + pad("st" + std::to_string(s), cw[k]);
    if (named) out += "|";
  }
  strip(out);
  out += "\n";
  for (TimeUnits t = 0; t < end; ++t) {
    std::string line = pad_left(std::to_string(t), tw) + " |";
    for (std::size_t k = 0; k < lanes.size(); ++k) {
      for (int s = 1; s <= lanes[k].latency; ++s) {
        const auto it = entering.find({lanes[k].memory, t - s + 1});
        line += " " + pad(it == entering.end() ? "." : it->second, cw[k]);
      }
      if (named) line += "|";
    }
    // No trailing blanks: diffs of the tutorial's expected output stay readable.
    strip(line);
    out += line + "\n";
  }
  return out;
}

}  // namespace mmsim::teaching
