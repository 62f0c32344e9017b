// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QCoreApplication;

namespace crossroof::widgets {

/// Qt 6.4 hashes short strings (qHash of a QString: every QHash or QSet lookup by a QString key, QCustomPlot's
/// tick-label cache among them) with AVX code that returns without a vzeroupper. Until the next one, the upper
/// halves of the vector registers stay "in use", and on recent x86 processors every SSE instruction that follows
/// pays for merging them: the whole X-model solve ran 5 times slower on the GUI thread (1.0 ms against 0.19 ms)
/// than in a program that never hashed a QString. clearUpperVectorState() ends that state (vzeroupper); where
/// the processor has no AVX it does nothing, and no such state exists.
void clearUpperVectorState();

/// Installs, once, an application-wide event filter that clears that state before each event is delivered, so
/// that every handler starts clean. Handlers that hash strings before they compute call clearUpperVectorState()
/// again where the computing starts.
void guardVectorState(QCoreApplication *app);

} // namespace crossroof::widgets
