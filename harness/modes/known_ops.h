// Which manifest op names are real: the seed's CPU ops (snake_case, the
// registrations listed in ../shared/spec/op-contracts.md section 3.11 and the
// other CPU files it names), the runner keys of the recorded upstream captures
// (../shared/spec/upstream-oracles.md section 2.1: rmsnorm, l2norm, rope, ...,
// and the composites dense_attention, moe_block, long_context_rope,
// gdn_packed_decode_bf16) and every manifest op a catalog adapter maps. A name
// outside all of them is a typo or a stale capture: FAILED ("unknown op
// 'rmsnorn'"), never UNSUPPORTED with exit 0.
#pragma once

#include <string>

namespace vt::conform {

bool IsKnownGoldenOp(const std::string& manifest_op);

}  // namespace vt::conform
