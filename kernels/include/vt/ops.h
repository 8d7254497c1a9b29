// The vt kernel set's public API: one function per op.
#pragma once

#include "vt/codec.h"
#include "vt/context.h"
#include "vt/error.h"
#include "vt/ops_act.h"
#include "vt/ops_gemm.h"
#include "vt/ops_glue.h"
#include "vt/ops_norm.h"
#include "vt/ops_rope.h"
#include "vt/ops_quant.h"
#include "vt/ops_gdn_glue.h"
#include "vt/ops_kda.h"
#include "vt/registry.h"
#include "vt/tensor.h"
