# Armada — русский
app-title = Армада
language = Язык

## Home
home-tagline = Морской бой для двух друзей — каждый ответ доказан, без судьи.
home-computer = Играть с компьютером
level-easy = Лёгкий
level-medium = Средний
level-hard = Сложный
home-mode = Игра
mode-armada = Армада: 10×10 с торпедами, авиаударами и радаром
mode-classic = Классика { $side }×{ $side }, только выстрелы
home-friend = Играть с другом
home-host = Открыть стол
home-invite-hint = Код от друга (4821-harbor-anchor) или приглашение
home-join = Присоединиться
home-public = Через интернет (публичная сеть libp2p)
home-public-why = Ищет ретрансляторы в публичной сети libp2p, чтобы друг за другим роутером мог подключиться; выключено — только локальная сеть и прямые адреса.
friend-waiting = Ваш стол открыт. Дайте это приглашение другу:
friend-copy = Скопировать приглашение
friend-or-invite = Или дайте ему приглашение (длиннее: 128 бит, и работает без публичной сети):
friend-copy-code = Скопировать код
friend-code = Ваш стол открыт. Продиктуйте другу этот код:
friend-codes-off = Кто-то всё время вводил неверные коды: этот стол больше не показывает короткий код. Дайте другу приглашение.
friend-code-withdrawn = Кто-то трижды ввёл неверный код, поэтому он отозван. Продиктуйте другу новый, ниже.
friend-failed = Игра не может продолжиться: { $why }
friend-bad-invite = Это не код и не приглашение: { $why }
friend-no-store = Для игры с другом нужно место для сохранения игр, а его нет.
cancel = Отмена
link-connecting = Соединение…
link-waiting = Ждём друга…
link-direct = Соединено напрямую
link-relayed = Соединено через ретранслятор
link-direct-punched = Соединено напрямую (сквозь роутеры пробит проход)
link-direct-upnp = Соединено напрямую (ваш роутер перенаправляет порт: UPnP)
link-relayed-limited = Соединено через ретранслятор, ограничивающий каждое соединение: игра переходит на новые
link-reconnecting = Соединение потеряно — восстанавливаем…
link-gone = Соперник пропал: техническое поражение записано в протокол.
refused = Отклонено: { $why }
home-lan = Найти столы в локальной сети
lan-searching = Ищем столы в локальной сети…
lan-none = В локальной сети столов не найдено.
lan-off = Поиск в локальной сети выключен.
lan-table = Стол ({ $game }) у { $peer }
lan-needs-invite = хозяин даёт приглашение сам
home-past = Прошлые игры
home-past-none = Завершённых игр пока нет.
past-computer = компьютер ({ $level })
past-friend = друг
past-line = Соперник — { $who }: { $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[other] { $games } игр
}, счёт { $me } – { $them }; { $verdict }
past-honest = каждый ответ доказан
past-lie = доказана ложь
past-incomplete = не проверено до конца
home-resume = Продолжить незавершённую игру
home-resume-friend = Продолжить игру с другом
home-resume-failed = Эту игру невозможно открыть: { $why }
home-unreadable = { $count ->
    [one] { $count } сохранённый стол невозможно прочитать (повреждён или сохранён другой версией Армады).
    [few] { $count } сохранённых стола невозможно прочитать (повреждены или сохранены другой версией Армады).
   *[other] { $count } сохранённых столов невозможно прочитать (повреждены или сохранены другой версией Армады).
}

## Placement
placement-title = Расставьте флот
placement-help = Перетащите корабль на поле или выберите его и щёлкните клетку. R или правый щелчок поворачивает его; расставленный корабль можно перетащить.
placement-auto = Расставить автоматически
placement-clear = Очистить
placement-rotate = Повернуть (R)
placement-start = Начать игру
placement-left = { $count ->
    [one] Остался { $count } корабль
    [few] Осталось { $count } корабля
   *[other] Осталось { $count } кораблей
}
placement-ready-button = Готов
placement-ready = Все корабли расставлены.
placement-timer = Таймер хода: 15 секунд на ход
placement-other-ready = Соперник готов.
placement-other-placing = Соперник ещё расставляет флот…
placement-waiting = Ждём соперника…
problem-off-board = Корабль вышел бы за край поля.
problem-overlap = Корабль лёг бы на другой корабль.
problem-touch = Корабли не могут касаться, даже углами.
ship = { $len ->
    [5] пятипалубный
    [4] линкор
    [3] крейсер
    [2] эсминец
   *[1] катер
}
dock-ship = { ship } ({ $len ->
    [one] { $len } палуба
    [few] { $len } палубы
   *[other] { $len } палуб
})

## Battle
board-own = Ваш флот
board-enemy = Поле соперника
turn-yours = Ваш ход
turn-theirs = Ход соперника
turn-answer = Ждём ответа…
turn-landing = Ваши снаряды падают…
turn-over = Партия окончена
hud-afloat = Корабли соперника на плаву: { $ships }
hud-their-stock = Оставшееся оружие соперника: торпеды ×{ $torpedoes }, авиаудары ×{ $air }, радар ×{ $radar }
timer-left = { $seconds } с
weapon-shot = Выстрел (1)
weapon-torpedo = Торпеда ×{ $left } (2)
weapon-air = Авиаудар ×{ $left } (3)
weapon-radar = Радар ×{ $left } (4)
heading = Торпеда идёт { $arrow } — R поворачивает
aim-refused = Не сюда: { $why }
radar-picture = Радар: { $decks ->
    [0] ни одной палубы
    [one] { $decks } палуба
    [few] { $decks } палубы
   *[other] { $decks } палуб
} в квадрате (видно лишь миг)
resign = Сдаться
resign-confirm = Сдаться в этой партии?
resign-yes = Да, сдаюсь
resign-no = Нет, играем дальше
draw-offer = Предложить ничью
draw-offered = Вы предложили ничью.
draw-theirs = Соперник предлагает ничью.
draw-accept = Принять
draw-decline = Отклонить
draw-declined-theirs = Соперник отклонил ничью.
draw-declined-mine = Вы отклонили ничью.
score = Счёт: вы { $me } — { $them } соперник
log-title = Ходы
log-you = Вы: { $what }
log-they = Соперник: { $what }
cell-label = { $board } { $cell }: { $state }
cell-aimed = наведено
cell-refused = сюда нельзя
cell-lost = снаряд потерян
cell-unknown = неизвестно
cell-water = вода
cell-miss = мимо
cell-hit = попадание
cell-wreck = потоплен
cell-ship = корабль
home = На главную

## Reports
act-shot = выстрел { $cell }
act-torpedo-row = торпеда, строка { $line } { $arrow }
act-torpedo-column = торпеда, столбец { $line } { $arrow }
act-air = авиаудар { $cell }
act-radar = радар { $cell }
fx-miss = { $cell } мимо
fx-hit = { $cell } ранил
fx-sunk = { $cell } убил ({ ship })
fx-lost = { $cell } потерян
fx-deck = { $cell } палуба
fx-water = { $cell } вода
fx-swept = квадрат просканирован
why-marked = эта клетка уже отмечена
why-edge = весь квадрат 3×3 должен лежать на поле
why-square-marked = все клетки этого квадрата уже отмечены
why-line-marked = все клетки этой линии уже отмечены
why-spent = не осталось
why-turn = сейчас не ваш ход
why-other = { $text }
again = ещё ход

## Results
result-win = Вы победили!
result-lose = Вы проиграли.
result-draw = Ничья.
how-sunk = Весь флот проигравшего потоплен.
how-resigned = { $who ->
    [you] Вы сдались.
   *[they] Соперник сдался.
}
how-forfeit = Техническое поражение.
how-draw = Оба согласились на ничью.
how-lie-move = { $who ->
    [you] Ваш ответ на ход { $move } оказался доказанной ложью.
   *[they] Ответ соперника на ход { $move } оказался доказанной ложью.
}
how-lie-message = { $who ->
    [you] Ваше сообщение { $seq } оказалось доказанной ложью.
   *[they] Сообщение соперника { $seq } оказалось доказанной ложью.
}
stats-title = Статистика
stats-moves = Действия
stats-shots = Обстрелянные клетки
stats-hits = Попадания в палубы
stats-accuracy = Меткость
stats-weapons = Использованное оружие
stats-you = Вы
stats-them = Соперник
verdict-title = Проверка
verdict-you = Ваши ответы
verdict-them = Ответы соперника
verdict-honest = { $answers ->
    [one] { $answers } ответ доказан
    [few] Все { $answers } ответа доказаны
   *[other] Все { $answers } ответов доказаны
}, раскрытый флот правильный.
verdict-lie = Доказана ложь: сообщение { $seq }: { $reason }
verdict-lie-move = Доказана ложь: ход { $move } ({ $action }): { $reason }
verdict-pending = Ждём раскрытия флота…
verdict-incomplete = Не проверено: { $why }
play-again = Ещё раз
save-transcript = Сохранить протокол
saved-to = Сохранено: { $path }
