#include "algorithms/layouts/congestion_output.h"

namespace mmsim {

report::Json to_json(const layouts::CongestionQuery& q, const layouts::CongestionStats& s, bool speed) {
  using ull = unsigned long long;
  report::Json hist = report::Json::array();
  for (std::size_t c = 0; c < s.histogram.size(); ++c)
    if (s.histogram[c])
      hist.push(
          report::Json::object().set("congestion", static_cast<ull>(c)).set("count", static_cast<ull>(s.histogram[c])));
  report::Json j = report::Json::object();
  j.set("layout", q.layout).set("pattern", q.pattern).set("w", static_cast<ull>(q.w)).set("dims", q.dims);
  j.set("trials", static_cast<ull>(s.trials)).set("seed", static_cast<ull>(q.seed));
  j.set("mean", s.mean).set("stderr", s.stderr_mean).set("min", s.min).set("max", s.max);
  j.set("histogram", std::move(hist));
  if (speed) j.set("seconds", s.seconds).set("warp_accesses_per_second", s.accesses_per_second());
  return j;
}

}  // namespace mmsim
