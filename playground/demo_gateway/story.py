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

LIGHTHOUSE_STORY_ZH = """\
海鸥角的守灯人

在海鸥角最后一块礁石上，陆地到了尽头，大海从这里开始。那里立着一座灯塔，刷成红白相间，像一根拐杖糖。\
守灯人是一位叫玛伦的女人，她在那里住了三十一个冬天，熟悉灯塔发出的每一种声音：转动透镜的钟表机构的滴答声，\
风吹过瞭望台栏杆的叹息声，还有起雾时灯发出的低沉嗡鸣。

每天傍晚，太阳落到海面以下之前，玛伦都会爬上一百一十七级台阶，擦亮透镜，给灯芯剪去焦黑的边，\
再把油壶灌满。她一边干活一边数台阶，数了三十一年，从来没有数错过一次。\
渔夫们说，只要海鸥角的灯亮着，就算是最黑的夜，他们也能找到回家的路。

有一年秋天，风暴来得比往年都早。第一天夜里，雨像石子一样砸在玻璃上，浪头高过了礁石，\
打湿了灯塔下半截的墙。玛伦一夜没睡，每过一个钟头就上去看一次灯。灯一直亮着，稳稳地转着，\
把光一圈一圈地投到翻滚的海面上。

第二天夜里，风更大了。快到半夜的时候，钟表机构忽然停了。透镜不再转动，光只照向一个方向，\
远处的船看到的将是一盏不会闪的灯，分不清这是灯塔还是岸上的窗户。玛伦拿起手摇柄，\
把它插进机构旁边的孔里，开始一圈一圈地摇。她摇了整整一夜，手臂酸得抬不起来，也没有停下。

天快亮的时候，一条小渔船从雨幕里钻了出来，顺着灯光绕过暗礁，平平安安地进了港。\
船上是年轻的渔夫托比和他的父亲。他们后来说，那一夜他们迷失了方向，直到看见海鸥角的灯一闪一闪，\
才知道自己在哪里。

那年冬天，城里寄来一封信。灯塔要改成自动的了：一盏小小的电灯，一个定时器，再也不需要有人守着。\
玛伦读完信，把它折好放进抽屉，然后像往常一样爬上一百一十七级台阶，擦亮了透镜。

春天来的时候，工人们装好了新的灯。它准时亮起，准时熄灭，从来不会累。玛伦搬到了港口边的一间小屋，\
窗户正对着海鸥角。每天傍晚，她都会坐在窗前，看着那盏灯亮起来，在心里数着一百一十七级台阶。

托比每次出海回来，都会给她带一条鱼。他说，新灯很好，可是他还是会想起那个风暴夜，\
想起有一个人在黑暗里一圈一圈地摇着手柄，为了让海上的人能找到回家的路。

玛伦笑了笑，没有说话。她知道，灯塔的光从来不只是一盏灯，而是有人在岸上等着你的那份心意。\
"""
