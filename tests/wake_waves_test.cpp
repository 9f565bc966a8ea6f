// keel::WakeField's waves as waves (docs/wakes.md): a bobbing source's
// ring travels at the group velocity, the absorbing edges send little of it
// back, the window follows a point without moving the waves, and nothing
// forces a still field. Windows of 128 x 128 nodes, 30 Hz frames.
#include "support/wake_scenes.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <vector>

namespace keel::test {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kFrame_s = 1.0 / 30;
constexpr double kCell_m = 0.25;
constexpr double kWavelength_m = 2;  // 8 cells

/// A window of kCell_m cells centred on the origin, its absorbing band
/// `spongeWidth_m` wide (0: the default, size / 8).
std::shared_ptr<WakeField> window(double size_m, double spongeWidth_m) {
  WakeFieldSettings ws;
  ws.size_m = size_m;
  ws.cellSize_m = kCell_m;
  ws.spongeWidth_m = spongeWidth_m;
  return std::make_shared<WakeField>(flatWater(), ws);
}

/// A 32 m window (128 x 128 nodes).
std::shared_ptr<WakeField> smallWindow(double spongeWidth_m) { return window(32, spongeWidth_m); }

/// The heave frequency [rad/s] of waves kWavelength_m long: omega^2 = g k.
double bobbingFrequency(const WakeField& field) {
  return std::sqrt(field.settings().gravity_mps2 * 2 * kPi / kWavelength_m);
}

/// A 0.5 m cube, half immersed at the origin, heaving as
/// `a sin^2(pi t / D) sin(omega t)` over D = `periods` periods (a Hann
/// envelope: one packet of waves, the narrower in frequency the longer),
/// then removed. Returns each
/// frame's heave velocity [m/s], at the frame's middle: the rate its bottom
/// pushes the water aside, over its area, held over the frame.
std::vector<double> bob(const std::shared_ptr<WakeField>& field, double amplitude_m, int periods = 8) {
  Captive cube(box(btVector3(0.5, 0.5, 0.5)), field);
  const double omega = bobbingFrequency(*field), duration = periods * 2 * kPi / omega;
  const int frames = int(std::ceil(duration / kFrame_s));
  std::vector<double> velocity;
  for (int f = 0; f < frames; ++f) {
    const double t = f * kFrame_s, mid = t + kFrame_s / 2;
    const double y = amplitude_m * std::pow(std::sin(kPi * t / duration), 2) * std::sin(omega * t);
    const double envelope = std::pow(std::sin(kPi * mid / duration), 2);
    const double envelopeRate = kPi / duration * std::sin(2 * kPi * mid / duration);
    velocity.push_back(amplitude_m * (envelopeRate * std::sin(omega * mid) + envelope * omega * std::cos(omega * mid)));
    cube.place(btVector3(0, btScalar(y), 0), btVector3(0, btScalar(velocity.back()), 0), t, btScalar(kFrame_s));
    field->update(t, (f + 1) * kFrame_s);
  }
  field->remove(cube.action);
  return velocity;
}

/// Runs the field free over `frames` frames from its time (a whole number
/// of frames).
void runFree(WakeField& field, int frames) {
  const int first = int(std::lround(field.time_s() / kFrame_s));
  for (int f = first; f < first + frames; ++f) field.update(f * kFrame_s, (f + 1) * kFrame_s);
}

/// Calls `visit(east, north, height)` for each node of the window [m].
template <class Visit>
void forEachNode(const WakeField& field, Visit&& visit) {
  const WakeFieldSettings& s = field.settings();
  const double west = s.centreEast_m - s.size_m / 2, south = s.centreNorth_m - s.size_m / 2;
  for (int j = 0; j < field.nodesPerSide(); ++j)
    for (int i = 0; i < field.nodesPerSide(); ++i) {
      const double x = west + i * s.cellSize_m, y = south + j * s.cellSize_m;
      visit(x, y, double(field.wakeHeight_m(btScalar(x), btScalar(y), field.time_s())));
    }
}

/// The radius [m] of the ring's centroid: `sum r eta^2 / sum eta^2` over
/// the nodes within `radius_m` of the origin. The elevation's square is the
/// potential energy, half the energy of free waves, so this is the centroid
/// of the energy.
double ringRadius(const WakeField& field, double radius_m) {
  double sum = 0, first = 0;
  forEachNode(field, [&](double x, double y, double h) {
    const double r = std::hypot(x, y);
    if (r > radius_m) return;
    sum += h * h;
    first += r * h * h;
  });
  return first / sum;
}

/// The mean group velocity [m/s] of the energy a source radiates, from
/// its rate held over each frame (`rate`, any unit): each mode k gets the
/// energy `g |S(omega_k)|^2` (the forced oscillator), and the modes between
/// omega and omega + d omega number as `k dk ~ omega^3 d omega`, so the
/// energy radiated at omega goes as `omega^3 |S(omega)|^2` (each
/// mode's energy as in Newman, "Marine Hydrodynamics", 1977, ch. 6), and
/// travels at g / (2 omega). The
/// depth weight is left out: the field weights a band's waves alike (the
/// packet lies in one band; docs/wakes.md, "Depth").
double meanGroupVelocity(const std::vector<double>& rate, double g, double omegaMax_radps) {
  double energy = 0, flux = 0;
  constexpr int kSteps = 1000;
  for (int s = 0; s < kSteps; ++s) {
    const double omega = omegaMax_radps * (s + 0.5) / kSteps;
    std::complex<double> sum = 0;
    for (std::size_t f = 0; f < rate.size(); ++f) sum += rate[f] * std::polar(1.0, -omega * double(f) * kFrame_s);
    // A rate held over each frame: its transform times (1 - e^{-i w dt}) / (i w).
    const double held = std::norm(sum) * 2 * (1 - std::cos(omega * kFrame_s)) / (omega * omega);
    energy += omega * omega * omega * held;
    flux += omega * omega * omega * held * g / (2 * omega);
  }
  return flux / energy;
}

/// The speed of a bobbing cube's ring in a window `size_m` wide with a
/// 1 m absorbing band: its energy centroid's, fitted (least squares) to
/// once a second from `from_s` to `to_s` after the cube stopped.
struct RingSpeed {
  double measured = 0;       ///< the centroid's [m/s]
  double packet = 0;         ///< the packet's mean group velocity (meanGroupVelocity) [m/s]
  double groupVelocity = 0;  ///< g / (2 omega) [m/s]
};

RingSpeed ringSpeed(double size_m, int periods, int from_s, int to_s) {
  auto field = window(size_m, 1);
  const double g = field->settings().gravity_mps2, omega = bobbingFrequency(*field);
  const std::vector<double> rate = bob(field, 0.05, periods);
  runFree(*field, 30 * (from_s - 1));
  double st = 0, sr = 0, stt = 0, str = 0;
  const int samples = to_s - from_s + 1;
  for (int s = from_s; s <= to_s; ++s) {
    runFree(*field, 30);
    const double t = s, r = ringRadius(*field, size_m / 2 - 1.5);
    st += t;
    sr += r;
    stt += t * t;
    str += t * r;
  }
  RingSpeed speed;
  speed.measured = (samples * str - st * sr) / (samples * stt - st * st);
  speed.packet = meanGroupVelocity(rate, g, std::sqrt(g * kPi / (2 * kCell_m)));
  speed.groupVelocity = g / (2 * omega);
  return speed;
}

TEST(WakeWaves, ABobbingSourcesRingTravelsAtTheGroupVelocity) {
  // A source bobbing at omega radiates a ring of waves that travels at the
  // group velocity g / (2 omega) (deep water: Lighthill, "Waves in Fluids",
  // 1978, ch. 3; Newman, "Marine Hydrodynamics", 1977, ch. 6). The ring's
  // energy centroid, 1 to 7 s after a cube stopped bobbing for 8 periods
  // (before the ring's front reaches the 1 m absorbing band), moves at the
  // packet's mean group velocity: a little below g / (2 omega), since the
  // packet holds a band of frequencies and the higher ones are radiated
  // more strongly (WakeWaves.DISABLED_RingSpeedNarrowsToTheGroupVelocity).
  const RingSpeed speed = ringSpeed(32, 8, 1, 7);
  reportFigure("ring's speed against g / (2 omega) [m/s]", speed.measured, speed.groupVelocity);
  reportFigure("ring's speed against the packet's mean group velocity [m/s]", speed.measured, speed.packet);
  EXPECT_NEAR(speed.measured, speed.groupVelocity, 0.03 * speed.groupVelocity);
  EXPECT_NEAR(speed.measured, speed.packet, 0.005 * speed.groupVelocity);
}

TEST(WakeWaves, DISABLED_RingSpeedNarrowsToTheGroupVelocity) {
  // Run by hand: longer packets, narrower in frequency, in windows wide
  // enough to hold them (64 m: 256 x 256 nodes).
  struct Case {
    double size_m;
    int periods, from_s, to_s;
  };
  for (const Case c : {Case{32, 4, 1, 7}, Case{32, 6, 1, 7}, Case{32, 8, 1, 7}, Case{64, 8, 1, 20}, Case{64, 16, 1, 14},
                       Case{64, 24, 1, 6}}) {
    const RingSpeed speed = ringSpeed(c.size_m, c.periods, c.from_s, c.to_s);
    std::printf(
        "[  figure  ] %g m window, %d periods, %d to %d s after: ring's speed %.4f m/s, %+.2f %% from "
        "g / (2 omega) %.4f, %+.2f %% from the packet's mean group velocity %.4f\n",
        c.size_m, c.periods, c.from_s, c.to_s, speed.measured, 100 * (speed.measured / speed.groupVelocity - 1),
        speed.groupVelocity, 100 * (speed.measured / speed.packet - 1), speed.packet);
  }
}

/// The squared elevation summed over the nodes inside the absorbing bands
/// [m^2]: the interior's potential energy, over rho g / 2 and the cell's area.
double interiorSum(const WakeField& field) {
  const double inner = field.settings().size_m / 2 - field.settings().spongeWidth_m;
  double sum = 0;
  forEachNode(field, [&](double x, double y, double h) {
    if (std::abs(x) < inner && std::abs(y) < inner) sum += h * h;
  });
  return sum;
}

/// What the edges send back of the bobbing cube's ring: the largest
/// interior energy once each second from `from_s` to `to_s` after the cube
/// stopped, over the interior's energy when it stopped (the whole ring
/// inside), and the field's energy at `to_s` over what the cube put in.
struct Reflection {
  double interior = 0, field = 0;
};

Reflection reflection(double spongeWidth_m, int from_s, int to_s) {
  auto field = smallWindow(spongeWidth_m);
  bob(field, 0.05);
  const double peak = interiorSum(*field);
  runFree(*field, 30 * from_s);
  Reflection r;
  for (int s = from_s; s <= to_s; ++s) {
    if (s > from_s) runFree(*field, 30);
    r.interior = std::max(r.interior, interiorSum(*field) / peak);
  }
  r.field = field->energy_J() / field->sourceWork_J();
  EXPECT_NEAR(field->energy_J() + field->absorbedEnergy_J(), field->sourceWork_J(), 1e-3 * field->sourceWork_J());
  return r;
}

TEST(WakeWaves, TheEdgesSendBackLittleOfARing) {
  KEEL_SKIP_UNDER_SANITIZERS();
  // The ring has left the 12 m interior 22 s after the cube stopped (its
  // shorter, slower waves linger at below 1e-4 of its energy); what the
  // default absorbing band (4 m, two wavelengths) sends back is less still
  // (WakeWaves.DISABLED_ReflectionOfTheEdges: 5e-6 of the ring's energy).
  // The thinnest band (4 cells, half a wavelength) leaves 7 % here and
  // fails this.
  const Reflection r = reflection(0, 22, 24);
  reportValue("interior energy 22 to 24 s after, over the ring's", r.interior);
  reportValue("field's energy 24 s after, over the source's work", r.field);
  EXPECT_LT(r.interior, 1e-3);
  EXPECT_LT(r.field, 1e-3);
}

TEST(WakeWaves, DISABLED_ReflectionOfTheEdges) {
  // Run by hand: long after the ring left, what stays in the interior is
  // what the edges sent back: bands of two, one and half a wavelength.
  for (const double width : {4.0, 2.0, 1.0}) {
    const Reflection r = reflection(width, 30, 40);
    std::printf(
        "[  figure  ] absorbing band %.2f m: interior energy 30 to 40 s after over the ring's %.3g, "
        "field's energy 40 s after over the source's work %.3g\n",
        width, r.interior, r.field);
  }
}

TEST(WakeWaves, TheWindowMovesUnderTheWaves) {
  // setCentre moves the window by whole cells: a wave field re-expressed
  // about the new corner, so that the waves stay where they are in the
  // world. Heights at fixed points inside both windows, at the same time,
  // before and after the move, agree to float rounding.
  auto field = smallWindow(0);
  Captive cube(box(btVector3(0.5, 0.5, 0.5)), field);
  for (int f = 0; f < 90; ++f) {  // towed along east at 1.5 m/s for 3 s
    cube.place(btVector3(btScalar(-4 + 1.5 * f * kFrame_s), 0, 0), btVector3(1.5, 0, 0), f * kFrame_s,
               btScalar(kFrame_s));
    field->update(f * kFrame_s, (f + 1) * kFrame_s);
  }
  // A zero-length update re-synthesises the tiles from the modes held,
  // without what the absorbing band's product put beyond the held
  // wavenumbers in the tiles the last update published (1e-4 of the
  // heights here): the heights are taken after one, so that only the move
  // differs.
  const double t = field->time_s();
  field->update(t, t);
  std::vector<btVector3> points;
  for (int p = 0; p < 200; ++p) points.emplace_back(btScalar(-6 + 0.061 * p), 0, btScalar(-3 + 0.029 * p));
  std::vector<double> before;
  double largest = 0;
  for (const btVector3& p : points) {
    before.push_back(double(field->wakeHeight_m(p.x(), p.z(), t)));
    largest = std::max(largest, std::abs(before.back()));
  }
  field->setCentre(2.1, -1.3);  // 8 cells east, 5 south
  field->update(t, t);
  double worst = 0;
  for (std::size_t p = 0; p < points.size(); ++p)
    worst = std::max(worst, std::abs(double(field->wakeHeight_m(points[p].x(), points[p].z(), t)) - before[p]));
  reportValue("largest height [m]", largest);
  reportValue("largest change of a height by the move [m]", worst);
  EXPECT_GT(largest, 1e-3);
  EXPECT_LT(worst, 1e-6 * largest);
  // A boat the window left says so; one inside it does not.
  Captive inside(box(btVector3(0.5, 0.5, 0.5)), field), outside(box(btVector3(0.5, 0.5, 0.5)), field);
  inside.place(btVector3(17, 0, 0), btVector3(1, 0, 0), t, btScalar(kFrame_s));
  outside.place(btVector3(-15, 0, 0), btVector3(1, 0, 0), t, btScalar(kFrame_s));
  EXPECT_FALSE(inside.action.status().flags & StatusOutsideWakeField) << inside.action.status().describe();
  EXPECT_TRUE(outside.action.status().flags & StatusOutsideWakeField) << outside.action.status().describe();
}

TEST(WakeWaves, NothingForcesAStillField) {
  // No boats: the field stays exactly still.
  auto field = smallWindow(0);
  runFree(*field, 30);
  EXPECT_EQ(field->energy_J(), 0);
  EXPECT_EQ(field->absorbedEnergy_J(), 0);
  double largest = 0;
  forEachNode(*field, [&](double, double, double h) { largest = std::max(largest, std::abs(h)); });
  EXPECT_EQ(largest, 0);
  // A boat whose body goes non-finite puts nothing in: neither with a NaN
  // velocity nor with a NaN place.
  Captive cube(box(btVector3(0.5, 0.5, 0.5)), field);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int f = 0; f < 30; ++f) {
    const double t = field->time_s();
    cube.place(f < 15 ? btVector3(0, 0, 0) : btVector3(nan, 0, 0), f < 15 ? btVector3(0, nan, 0) : btVector3(0, 1, 0),
               t, btScalar(kFrame_s));
    field->update(t, t + kFrame_s);
    EXPECT_TRUE(cube.action.status().flags & (f < 15 ? StatusNonFiniteForce : StatusNonFiniteBody))
        << cube.action.status().describe();
    EXPECT_TRUE(std::isfinite(field->energy_J()));
  }
  EXPECT_EQ(field->energy_J(), 0);
  EXPECT_EQ(field->sourceWork_J(), 0);
}

}  // namespace
}  // namespace keel::test
