#pragma once
/// @file keel.hpp
/// Keel: boats for Bullet Physics. Include this one header for the whole API.
/// (Writing a keel::WaterSurface of your own with grid queries or a stated
/// cost? Include keel/surface_authoring.hpp too.)
///
/// Quick start:
/// @code
/// auto hull = std::make_shared<keel::Hull>(mesh);   // closed hull, body frame
/// keel::WaterAction boat(body, hull, [](btScalar x, btScalar z, btScalar t) { return btScalar(0); });
/// world->addAction(&boat);
/// @endcode

#include <keel/added_mass.hpp>
#include <keel/attitude.hpp>
#include <keel/collision_holing.hpp>
#include <keel/columns.hpp>
#include <keel/config.hpp>
#include <keel/constants.hpp>
#include <keel/effects.hpp>
#include <keel/flooding.hpp>
#include <keel/height_grid.hpp>
#include <keel/hull.hpp>
#include <keel/hull_slice.hpp>
#include <keel/hydrodynamics.hpp>
#include <keel/hydrostatics.hpp>
#include <keel/jobs.hpp>
#include <keel/level_of_detail.hpp>
#include <keel/mass_properties.hpp>
#include <keel/meshes.hpp>
#include <keel/rollback.hpp>
#include <keel/spectral_ocean.hpp>
#include <keel/substep_profile.hpp>
#include <keel/version.hpp>
#include <keel/volume_moments.hpp>
#include <keel/wake_field.hpp>
#include <keel/water_action.hpp>
#include <keel/water_fleet.hpp>
#include <keel/water_sampling.hpp>
#include <keel/water_surface.hpp>
#include <keel/waves.hpp>
