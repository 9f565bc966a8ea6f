// A boat's compartments as the substep keeps them (docs/flooding.md).
#include "flood/floodwater.hpp"

#include "flood/check.hpp"

#include "kernels/hull_soa.hpp"

#include <utility>

namespace keel::KEEL_ABI::detail {

void FloodState::set(std::vector<Compartment> given) {
  compartments = std::move(given);
  state.assign(compartments.size(), CompartmentState{});
  std::size_t toSea = 0;
  for (std::size_t i = 0; i < compartments.size(); ++i) {
    CompartmentState& c = state[i];
    c.permeability = double(compartments[i].permeability);
    c.capacity_m3 = double(capacityOf(compartments[i]));
    c.water_m3 = c.start_m3 = double(compartments[i].water_m3);
    for (const Opening& o : compartments[i].openings) toSea += o.to == kSea ? 1 : 0;
  }
  meshes = std::make_shared<const CompartmentMeshes>(compartments);
  water.assign(meshes->soa.vertexPadded, 0);
  height.assign(meshes->soa.vertexPadded, 0);
  seaU_m.assign(toSea, 0);
  seaV_m.assign(toSea, 0);
  seaHeight_m.assign(toSea, 0);
  seaFlow_m3ps.assign(toSea, 0);
  takenFromSea_m3 = 0;
  force = ForceTorque{};
  status = FloodingStatus{};
  status.compartments.assign(compartments.size(), CompartmentStatus{});
  for (std::size_t i = 0; i < compartments.size(); ++i) {
    status.compartments[i].water_m3 = compartments[i].water_m3;
    status.compartments[i].capacity_m3 = capacityOf(compartments[i]);
  }
}

}  // namespace keel::KEEL_ABI::detail
