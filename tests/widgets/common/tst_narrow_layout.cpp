// SPDX-License-Identifier: GPL-3.0-or-later
// A view's rows turn by the room it has: side by side only where they fit.
#include "common/narrow_layout.h"

#include <QBoxLayout>
#include <QLineEdit>
#include <QTest>

using namespace crossroof::widgets;

class TestNarrowLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aBarStacksWhereItsPartsDoNotFit()
    {
        // Two groups of controls that need 900 pixels side by side, told to stack below 720 (the Bandwidth
        // view's bar with the H100's trace names ran off a 1024x700 window's view, 730 pixels wide).
        QWidget view;
        auto *layout = new QVBoxLayout(&view);
        auto *bar = new QHBoxLayout;
        bar->setSpacing(6);
        for (int i = 0; i < 2; ++i) {
            auto *group = new QHBoxLayout;
            auto *field = new QLineEdit(&view);
            field->setMinimumWidth(447);
            group->addWidget(field);
            bar->addLayout(group);
        }
        layout->addLayout(bar);
        layout->addStretch(1);
        stackWhenNarrow(&view, bar, 720);
        const int need = 2 * 447 + 6 + layout->contentsMargins().left() + layout->contentsMargins().right();
        view.setMinimumSize(1, 1);
        view.resize(need + 40, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_COMPARE(bar->direction(), QBoxLayout::LeftToRight);
        view.resize(need - 20, 300); // wider than 720, narrower than the parts
        QTRY_COMPARE(bar->direction(), QBoxLayout::TopToBottom);
        view.resize(700, 300);
        QTRY_COMPARE(bar->direction(), QBoxLayout::TopToBottom);
        view.resize(need + 40, 300);
        QTRY_COMPARE(bar->direction(), QBoxLayout::LeftToRight);
    }
};

QTEST_MAIN(TestNarrowLayout)
#include "tst_narrow_layout.moc"
