"""The demo's long answer: a story about a lighthouse, long enough to watch it stream and press Stop."""

from __future__ import annotations

LIGHTHOUSE_STORY = """\
The Keeper of Gull Point

On the last rock of Gull Point, where the land gives up and the sea begins, there stood a lighthouse \
painted white and red like a stick of candy. Its keeper was a woman called Maren, who had lived there \
for thirty-one winters and knew every sound the tower made: the tick of the clockwork that turned the \
lens, the sigh of the wind in the gallery rail, the low hum of the lamp when the fog came in.

Every evening at dusk Maren climbed the hundred and twelve steps with a can of oil and a cloth. She \
polished the great glass lens until it shone like a bowl of water, wound the clockwork, and lit the \
lamp. Then the beam swept out over the water, once every ten seconds, as it had every night since her \
grandfather's time. Fishermen far out on the dark sea counted those ten seconds and knew exactly where \
they were.

One autumn a letter came from the city. The lighthouse was to be made automatic: a small electric lamp, \
a timer and a battery would do Maren's work, and she would be given a cottage in the town. She read the \
letter twice, folded it into her apron pocket, and said nothing to anyone. That night she climbed the \
stairs a little more slowly than usual.

The engineers arrived in spring with crates and cables. They were kind, and they admired the old lens, \
and they asked Maren a hundred questions about the tower. She showed them where the wind came through \
the north window, which step creaked, and how the fog could hide the rocks in less than a minute. The \
youngest of them, a boy named Tomas, wrote everything down in a notebook with a green cover.

On the night before Maren was to leave, a storm rolled in from the west. The new lamp had been fitted \
but not yet tested, and at nine o'clock, just as the first fishing boats were running for the harbour, \
the battery failed and the light went out. Tomas ran up the stairs shouting, and found Maren already \
there, her sleeves rolled up, filling the old lamp with oil by the light of a candle.

Together they lit it. Together they wound the clockwork, and the beam swept out again over the black and \
heaving water, once every ten seconds. Down in the harbour the fishermen's wives, who had been watching \
the dark point with their hearts in their mouths, saw the light return and began to cry and laugh at \
once. All six boats came home that night.

In the morning the engineers mended the battery, and the new lamp worked perfectly from then on. But \
the town council, who had heard about the storm, wrote a second letter. Maren could stay in the keeper's \
cottage as long as she liked, and the old lamp would be kept filled and ready, just in case.

So Maren stayed. She no longer climbed the stairs every evening, but on stormy nights she sat by the \
window with a cup of tea and counted the ten seconds between the flashes, and every summer Tomas came back \
to visit with a new notebook. When children from the town asked her what a lighthouse keeper does when \
the lighthouse keeps itself, she smiled and said: "She remembers how it is done, for the night when it \
is needed."

The End."""
