# Armada — українська
app-title = Армада
language = Мова

## Home
home-tagline = Морський бій для двох друзів — кожна відповідь доведена, без судді.
home-computer = Грати з комп'ютером
level-easy = Легкий
level-medium = Середній
level-hard = Складний
home-mode = Гра
mode-armada = Армада: 10×10 з торпедами, авіаударами та радаром
mode-classic = Класика { $side }×{ $side }, лише постріли
home-friend = Грати з другом
home-host = Відкрити стіл
home-invite-hint = Код від друга (4821-harbor-anchor) або запрошення
home-join = Приєднатися
home-public = Через інтернет (публічна мережа libp2p)
home-public-why = Шукає ретранслятори в публічній мережі libp2p, щоб друг за іншим роутером міг приєднатися; вимкнено — лише локальна мережа й прямі адреси.
friend-waiting = Ваш стіл відкрито. Дайте це запрошення другові:
friend-copy = Копіювати запрошення
friend-or-invite = Або дайте йому запрошення (довше: 128 біт, і працює без публічної мережі):
friend-copy-code = Копіювати код
friend-code = Ваш стіл відкрито. Продиктуйте другові цей код:
friend-codes-off = Хтось увесь час вводив неправильні коди: цей стіл більше не показує короткого коду. Дайте другові запрошення.
friend-code-withdrawn = Хтось тричі ввів неправильний код, тож його відкликано. Продиктуйте другові новий, нижче.
friend-failed = Гра не може продовжитися: { $why }
friend-bad-invite = Це не код і не запрошення: { $why }
friend-no-store = Для гри з другом потрібне місце для збереження ігор, а його немає.
cancel = Скасувати
link-connecting = З'єднання…
link-waiting = Чекаємо на друга…
link-direct = З'єднано напряму
link-relayed = З'єднано через ретранслятор
link-direct-punched = З'єднано напряму (крізь роутери пробито прохід)
link-direct-upnp = З'єднано напряму (ваш роутер переадресовує порт: UPnP)
link-relayed-limited = З'єднано через ретранслятор, що обмежує кожне з'єднання: гра переходить на нові
link-reconnecting = З'єднання втрачено — відновлюємо…
link-gone = Суперник зник: технічну поразку зафіксовано в протоколі.
refused = Відхилено: { $why }
home-lan = Знайти столи в локальній мережі
lan-searching = Шукаємо столи в локальній мережі…
lan-none = У локальній мережі столів не знайдено.
lan-off = Пошук у локальній мережі вимкнено.
lan-table = Стіл ({ $game }) у { $peer }
lan-needs-invite = господар дає запрошення сам
home-past = Минулі ігри
home-past-none = Завершених ігор ще немає.
past-computer = комп'ютер ({ $level })
past-friend = друг
past-line = Суперник — { $who }: { $games ->
    [one] { $games } гра
    [few] { $games } гри
   *[other] { $games } ігор
}, рахунок { $me } – { $them }; { $verdict }
past-honest = кожну відповідь доведено
past-lie = доведено брехню
past-incomplete = не перевірено до кінця
home-resume = Продовжити незавершену гру
home-resume-friend = Продовжити гру з другом
home-resume-failed = Цю гру неможливо відкрити: { $why }
home-unreadable = { $count ->
    [one] { $count } збережений стіл неможливо прочитати (пошкоджений або збережений іншою версією Армади).
    [few] { $count } збережені столи неможливо прочитати (пошкоджені або збережені іншою версією Армади).
   *[other] { $count } збережених столів неможливо прочитати (пошкоджені або збережені іншою версією Армади).
}

## Placement
placement-title = Розставте флот
placement-help = Перетягніть корабель на поле або виберіть його і клацніть клітинку. R або правий клік повертає його; розставлений корабель можна перетягнути.
placement-auto = Розставити автоматично
placement-clear = Очистити
placement-rotate = Повернути (R)
placement-start = Почати
placement-left = { $count ->
    [one] Залишився { $count } корабель
    [few] Залишилося { $count } кораблі
   *[other] Залишилося { $count } кораблів
}
placement-ready-button = Готовий
placement-ready = Усі кораблі розставлено.
placement-timer = Таймер ходу: 15 секунд на хід
placement-other-ready = Суперник готовий.
placement-other-placing = Суперник ще розставляє флот…
placement-waiting = Чекаємо на суперника…
problem-off-board = Корабель вийшов би за межі поля.
problem-overlap = Корабель ліг би на інший корабель.
problem-touch = Кораблі не можуть торкатися, навіть кутами.
ship = { $len ->
    [5] п'ятипалубний
    [4] лінкор
    [3] крейсер
    [2] есмінець
   *[1] катер
}
dock-ship = { ship } ({ $len ->
    [one] { $len } палуба
    [few] { $len } палуби
   *[other] { $len } палуб
})

## Battle
board-own = Ваш флот
board-enemy = Поле суперника
turn-yours = Ваш хід
turn-theirs = Хід суперника
turn-answer = Чекаємо на відповідь…
turn-landing = Ваші снаряди падають…
turn-over = Партію завершено
hud-afloat = Кораблі суперника на плаву: { $ships }
hud-their-stock = Зброя суперника, що лишилася: торпеди ×{ $torpedoes }, авіаудари ×{ $air }, радар ×{ $radar }
timer-left = { $seconds } с
weapon-shot = Постріл (1)
weapon-torpedo = Торпеда ×{ $left } (2)
weapon-air = Авіаудар ×{ $left } (3)
weapon-radar = Радар ×{ $left } (4)
heading = Торпеда йде { $arrow } — R повертає
aim-refused = Не сюди: { $why }
radar-picture = Радар: { $decks ->
    [0] жодної палуби
    [one] { $decks } палуба
    [few] { $decks } палуби
   *[other] { $decks } палуб
} у квадраті (видно лише мить)
resign = Здатися
resign-confirm = Здатися в цій партії?
resign-yes = Так, здаюся
resign-no = Ні, граємо далі
draw-offer = Запропонувати нічию
draw-offered = Ви запропонували нічию.
draw-theirs = Суперник пропонує нічию.
draw-accept = Прийняти
draw-decline = Відхилити
draw-declined-theirs = Суперник відхилив нічию.
draw-declined-mine = Ви відхилили нічию.
score = Рахунок: ви { $me } — { $them } суперник
log-title = Ходи
log-you = Ви: { $what }
log-they = Суперник: { $what }
cell-label = { $board } { $cell }: { $state }
cell-aimed = наведено
cell-refused = сюди не можна
cell-lost = снаряд втрачено
cell-unknown = невідомо
cell-water = вода
cell-miss = мимо
cell-hit = влучання
cell-wreck = потоплено
cell-ship = корабель
home = На головну

## Reports
act-shot = постріл { $cell }
act-torpedo-row = торпеда, рядок { $line } { $arrow }
act-torpedo-column = торпеда, стовпець { $line } { $arrow }
act-air = авіаудар { $cell }
act-radar = радар { $cell }
fx-miss = { $cell } промах
fx-hit = { $cell } влучання
fx-sunk = { $cell } потоплено ({ ship })
fx-lost = { $cell } втрачено
fx-deck = { $cell } палуба
fx-water = { $cell } вода
fx-swept = квадрат проскановано
why-marked = цю клітинку вже позначено
why-edge = увесь квадрат 3×3 має бути на полі
why-square-marked = усі клітинки цього квадрата вже позначено
why-line-marked = усі клітинки цієї лінії вже позначено
why-spent = не залишилося
why-turn = зараз не ваш хід
why-other = { $text }
again = ще хід

## Results
result-win = Ви перемогли!
result-lose = Ви програли.
result-draw = Нічия.
how-sunk = Увесь флот переможеного потоплено.
how-resigned = { $who ->
    [you] Ви здалися.
   *[they] Суперник здався.
}
how-forfeit = Технічна поразка.
how-draw = Обидва погодилися на нічию.
how-lie-move = { $who ->
    [you] Ваша відповідь на хід { $move } виявилася доведеною брехнею.
   *[they] Відповідь суперника на хід { $move } виявилася доведеною брехнею.
}
how-lie-message = { $who ->
    [you] Ваше повідомлення { $seq } виявилося доведеною брехнею.
   *[they] Повідомлення суперника { $seq } виявилося доведеною брехнею.
}
stats-title = Статистика
stats-moves = Дії
stats-shots = Обстріляні клітинки
stats-hits = Влучання в палуби
stats-accuracy = Влучність
stats-weapons = Використана зброя
stats-you = Ви
stats-them = Суперник
verdict-title = Перевірка
verdict-you = Ваші відповіді
verdict-them = Відповіді суперника
verdict-honest = { $answers ->
    [one] { $answers } відповідь доведено
    [few] Усі { $answers } відповіді доведено
   *[other] Усі { $answers } відповідей доведено
}, розкритий флот правильний.
verdict-lie = Доведено брехню: повідомлення { $seq }: { $reason }
verdict-lie-move = Доведено брехню: хід { $move } ({ $action }): { $reason }
verdict-pending = Чекаємо на розкриття флоту…
verdict-incomplete = Не перевірено: { $why }
play-again = Ще раз
save-transcript = Зберегти протокол
saved-to = Збережено: { $path }
