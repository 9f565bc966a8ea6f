// The Wageningen B-screw series' open-water polynomials: Oosterveld & van
// Oossanen (1975), "Further computer-analyzed data of the Wageningen B-screw
// series", International Shipbuilding Progress 22, Table 1 (Reynolds number
// 2e6), as reprinted by Bernitsas, Ray & Kinley (1981), "K_T, K_Q and
// efficiency curves for the Wageningen B-series propellers", University of
// Michigan report 237.
#include "propulsion/b_series.hpp"

#include <array>
#include <cstddef>

namespace keel::KEEL_ABI::detail {
namespace {

/// One term C J^s (P/D)^t (A_E/A_0)^u Z^v.
struct Term {
  double c;
  int s, t, u, v;
};

// K_T: 39 terms.
constexpr std::array<Term, 39> kThrust{{
    {+0.00880496, 0, 0, 0, 0},  {-0.204554, 1, 0, 0, 0},     {+0.166351, 0, 1, 0, 0},    {+0.158114, 0, 2, 0, 0},
    {-0.147581, 2, 0, 1, 0},    {-0.481497, 1, 1, 1, 0},     {+0.415437, 0, 2, 1, 0},    {+0.0144043, 0, 0, 0, 1},
    {-0.0530054, 2, 0, 0, 1},   {+0.0143481, 0, 1, 0, 1},    {+0.0606826, 1, 1, 0, 1},   {-0.0125894, 0, 0, 1, 1},
    {+0.0109689, 1, 0, 1, 1},   {-0.133698, 0, 3, 0, 0},     {+0.00638407, 0, 6, 0, 0},  {-0.00132718, 2, 6, 0, 0},
    {+0.168496, 3, 0, 1, 0},    {-0.0507214, 0, 0, 2, 0},    {+0.0854559, 2, 0, 2, 0},   {-0.0504475, 3, 0, 2, 0},
    {+0.010465, 1, 6, 2, 0},    {-0.00648272, 2, 6, 2, 0},   {-0.00841728, 0, 3, 0, 1},  {+0.0168424, 1, 3, 0, 1},
    {-0.00102296, 3, 3, 0, 1},  {-0.0317791, 0, 3, 1, 1},    {+0.018604, 1, 0, 2, 1},    {-0.00410798, 0, 2, 2, 1},
    {-0.000606848, 0, 0, 0, 2}, {-0.0049819, 1, 0, 0, 2},    {+0.0025983, 2, 0, 0, 2},   {-0.000560528, 3, 0, 0, 2},
    {-0.00163652, 1, 2, 0, 2},  {-0.000328787, 1, 6, 0, 2},  {+0.000116502, 2, 6, 0, 2}, {+0.000690904, 0, 0, 1, 2},
    {+0.00421749, 0, 3, 1, 2},  {+0.0000565229, 3, 6, 1, 2}, {-0.00146564, 0, 3, 2, 2},
}};

// K_Q: 47 terms.
constexpr std::array<Term, 47> kTorque{{
    {+0.00379368, 0, 0, 0, 0},   {+0.00886523, 2, 0, 0, 0},   {-0.032241, 1, 1, 0, 0},     {+0.00344778, 0, 2, 0, 0},
    {-0.0408811, 0, 1, 1, 0},    {-0.108009, 1, 1, 1, 0},     {-0.0885381, 2, 1, 1, 0},    {+0.188561, 0, 2, 1, 0},
    {-0.00370871, 1, 0, 0, 1},   {+0.00513696, 0, 1, 0, 1},   {+0.0209449, 1, 1, 0, 1},    {+0.00474319, 2, 1, 0, 1},
    {-0.00723408, 2, 0, 1, 1},   {+0.00438388, 1, 1, 1, 1},   {-0.0269403, 0, 2, 1, 1},    {+0.0558082, 3, 0, 1, 0},
    {+0.0161886, 0, 3, 1, 0},    {+0.00318086, 1, 3, 1, 0},   {+0.015896, 0, 0, 2, 0},     {+0.0471729, 1, 0, 2, 0},
    {+0.0196283, 3, 0, 2, 0},    {-0.0502782, 0, 1, 2, 0},    {-0.030055, 3, 1, 2, 0},     {+0.0417122, 2, 2, 2, 0},
    {-0.0397722, 0, 3, 2, 0},    {-0.00350024, 0, 6, 2, 0},   {-0.0106854, 3, 0, 0, 1},    {+0.00110903, 3, 3, 0, 1},
    {-0.000313912, 0, 6, 0, 1},  {+0.0035985, 3, 0, 1, 1},    {-0.00142121, 0, 6, 1, 1},   {-0.00383637, 1, 0, 2, 1},
    {+0.0126803, 0, 2, 2, 1},    {-0.00318278, 2, 3, 2, 1},   {+0.00334268, 0, 6, 2, 1},   {-0.00183491, 1, 1, 0, 2},
    {+0.000112451, 3, 2, 0, 2},  {-0.0000297228, 3, 6, 0, 2}, {+0.000269551, 1, 0, 1, 2},  {+0.00083265, 2, 0, 1, 2},
    {+0.00155334, 0, 2, 1, 2},   {+0.000302683, 0, 6, 1, 2},  {-0.0001843, 0, 0, 2, 2},    {-0.000425399, 0, 3, 2, 2},
    {+0.0000869243, 3, 3, 2, 2}, {-0.0004659, 0, 6, 2, 2},    {+0.0000554194, 1, 6, 2, 2},
}};

/// Powers 0..6 of x (the polynomials' highest exponent is 6).
std::array<double, 7> powers(double x) {
  std::array<double, 7> p{};
  p[0] = 1;
  for (std::size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * x;
  return p;
}

template <std::size_t N>
double sum(const std::array<Term, N>& terms, const BSeriesPowers& p, const std::array<double, 7>& j) {
  double total = 0;
  for (const Term& k : terms)
    total += k.c * j[std::size_t(k.s)] * p.pitch[std::size_t(k.t)] * p.area[std::size_t(k.u)] *
             p.blades[std::size_t(k.v)];
  return total;
}

}  // namespace

BSeriesPowers BSeriesPowers::of(double pitchRatio, double bladeAreaRatio, int blades) {
  BSeriesPowers p;
  p.pitch = powers(pitchRatio);
  const std::array<double, 7> area = powers(bladeAreaRatio), z = powers(double(blades));
  for (std::size_t i = 0; i < 3; ++i) p.area[i] = area[i], p.blades[i] = z[i];
  return p;
}

double bSeriesThrust(const BSeriesPowers& p, double advanceRatio) { return sum(kThrust, p, powers(advanceRatio)); }

double bSeriesTorque(const BSeriesPowers& p, double advanceRatio) { return sum(kTorque, p, powers(advanceRatio)); }

std::size_t bSeriesThrustTerms() { return kThrust.size(); }
std::size_t bSeriesTorqueTerms() { return kTorque.size(); }

}  // namespace keel::KEEL_ABI::detail
