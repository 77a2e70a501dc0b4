// The chief arbiter's view of the webhooks (/webhooks; issue 46.2,
// DOMAIN.md §10): each endpoint, what it asked for, whether a 410 disabled
// it, and the deliveries that failed for good, which `arbiter webhook
// retry ID` sends again. Server-rendered, in Chinese and English like the
// tournament page. It shows what ListWebhooks answers, which never holds a
// `whsec_` secret (only whether one is set).
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_WEBHOOKS_PAGE_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_WEBHOOKS_PAGE_H_

#include <string>

#include "adjudicator/service/console/venue_time.h"
#include "arbiter/v1/service.pb.h"

namespace arbiter::service::console {

// `time` says when an endpoint was disabled, in the venue's clock.
std::string RenderWebhooks(const v1::ListWebhooksResponse& list, const VenueTime& time);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_WEBHOOKS_PAGE_H_
