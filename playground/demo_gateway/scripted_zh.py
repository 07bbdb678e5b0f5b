"""Scripted answers in Chinese: what the demo models say to the Chinese wording of the playground's
own example prompts (a Chinese visitor's examples ask in Chinese), merged into `scripted`'s tables.
Examples the demo already answers from its facts, conversions or drawings are not repeated here."""

from __future__ import annotations

from typing import Any

from playground.demo_gateway.story import LIGHTHOUSE_STORY_ZH

RIDDLE_ANSWER = "钢琴。它有很多键，却没有一个能打开锁。"
RIDDLE_STEPS = (
    "打不开锁的“键”，一定是另一种意思的键。",
    "乐器和键盘都有键。",
    "钢琴有 88 个琴键，身上却没有一把锁，最符合。",
    "电脑键盘也说得通，但这个谜语的经典答案是钢琴。",
    "所以答案是：钢琴。",
)
WEATHER_WITHOUT_TOOL = "我自己查不到实时天气。给我 get_weather 工具（示例会把它填好），我就会用它查询巴黎（Paris）现在的天气。"
CAT = ("猫是一种毛茸茸的小动物，有四条腿、胡须、锋利的爪子和一条长尾巴。它一天中大部分时间在睡觉，黄昏时捕猎，"
       "满足时会打呼噜，还会对人“喵”地叫。")

ANSWERS: dict[str, str] = {
    "什么东西有很多键，却打不开一把锁？请一步步想清楚。": RIDDLE_ANSWER,
    "用 get_weather 工具查一下巴黎（Paris）现在的天气。": WEATHER_WITHOUT_TOOL,
    "用 get_weather 工具查一下巴黎（Paris）的天气。": WEATHER_WITHOUT_TOOL,
    "黄昏时的灯塔": "画好了：岩石岬角上一座白色的灯塔，灯刚刚点亮，背后是黄昏橙色和紫色的天空，下面的大海渐渐暗了下来。",
    "描述一只猫。": CAT,
    "描述一种草原上的动物。": ("狮子是非洲草原上的大型猫科动物：黄褐色的皮毛，尾巴末端有一簇毛，雄狮还有深色的鬃毛。"
                            "狮子成群生活，黄昏时一起捕猎斑马和羚羊，炎热的白天在树荫下休息。"),
    "写一个关于灯塔的长故事。": LIGHTHOUSE_STORY_ZH,
    "用一句话概括这份文档。": "这份文档分成一百个编号的小节，说的都是同一件事：网关按请求里的模型 ID，把每个请求转给对应的模型家族。",
    "这周 ai 领域发生了什么？": ("这里的搜索是模拟的，所以我无法报道真实的新闻：找到的唯一结果（example.com）只是占位。"
                          "连接真实网关时，这个回答会概括本周的 AI 新闻，并引用它读过的网页。"),
    "猫为什么会打呼噜？先想一想。": ("猫在吸气和呼气时让喉部的肌肉每秒抽动许多次，声带随之以大约 25 到 150 赫兹的频率振动，"
                           "这就是呼噜声。猫满足时会打呼噜，紧张或受伤时也会：打呼噜似乎能让它们平静下来，"
                           "这种低频振动甚至可能有助于骨骼和组织的愈合。"),
    "给我一个表示“快乐”的词。": "愉快。（还有：高兴、开心、喜悦、欢欣。）",
    "网关有什么新功能？": "网关的聊天模型现在支持四种传输格式，视频模型统一在一个任务 API 之后，嵌入向量也可以按需缩短。",
}

REASONING: dict[str, tuple[str, ...]] = {
    "什么东西有很多键，却打不开一把锁？请一步步想清楚。": RIDDLE_STEPS,
    "猫为什么会打呼噜？先想一想。": (
        "打呼噜是一种声音，所以一定有东西在振动。",
        "喉部的肌肉快速抽动，让声带在吸气和呼气时都嗡嗡作响。",
        "猫高兴时会打呼噜，受伤时也会，所以它不只是满足的信号。",
        "低频振动有助愈合的说法正在研究，这也许能解释受伤时的呼噜。",
        "我先解释它是怎么发出的，再说猫为什么这样做。",
    ),
}

STRUCTURED: dict[str, dict[str, Any]] = {
    "描述一只猫。": {"name": "猫", "species": "Felis catus", "legs": 4, "sound": "喵", "colour": "虎斑",
                  "description": "一种有胡须和长尾巴的毛茸茸的小动物。"},
    "描述一种草原上的动物。": {"name": "狮子", "diet": "carnivore", "legs": 4, "habitat": {"continent": "非洲", "climate": "炎热，分旱季和雨季"},
                     "facts": ["狮子成群生活。", "雄狮有深色的鬃毛。", "它们在黄昏时一起捕猎。"]},
}
